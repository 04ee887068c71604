#pragma once
// A model on a CUDA device: its weights, gradients and optimizer state in device memory from
// the device's arena, copied from and to the host Model's arrays (and the rule's) on request.
// The optimizer steps run on the device (update_kernels.cu); a rule without a device form
// makes the weights' round trip through the host. A step's constants reach the update kernel
// through device memory (pinned, copied on the stream), so a captured graph can replay it.
#include <memory>
#include <optional>

#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_optimizer_state.h"
#include "backend/cuda/device_buffer.h"
#include "backend/cuda/pinned_upload.h"
#include "layerforge/backend/backend.h"

namespace lf {

class CudaDeviceModel final : public DeviceModel {
public:
    // Allocates and fills the device copies (push_weights); throws lf::Error on failure.
    CudaDeviceModel(Model& model, const std::string& device, std::shared_ptr<CudaContext> context,
                    DeviceArena& arena);

    std::unique_ptr<Plan> make_plan(const PlanOptions& options) override;
    void push_weights() override;
    void pull_weights() override;
    void pull_grads() override;
    void update(WeightUpdate& rule, double lr) override;
    std::unique_ptr<GradientExchange> gradient_exchange(Communicator& world) override;
    void set_loss_scale(float scale) override;
    bool last_update_skipped() override;

    // The rule's coming step in its device form, counted as taken: its state arrays uploaded
    // where stale and its constants copied to the device copy the kernel reads (queued on the
    // stream). nullopt for a rule without a device form; nothing is counted then.
    std::optional<lf_cuda_update> take_device_step(WeightUpdate& rule, double lr);
    // Queues the update kernel of a step take_device_step() returned (capturable).
    void queue_update(const lf_cuda_update& step);

    float* device_weights() const { return weights_.floats(); }
    float* device_grads() const { return grads_.floats(); }
    const CudaContext& context() const { return *context_; }

private:
    void copy_weights_to_host();
    std::shared_ptr<CudaContext> context_;
    DeviceArena& arena_;
    DeviceBuffer weights_, grads_;
    CudaOptimizerState optimizer_;
    DeviceBuffer step_;         // the current step's lf_cuda_update, as the kernel reads it
    PinnedUpload step_upload_;  // its way there
    float loss_scale_ = 0;      // 0: no loss scaling (set_loss_scale)
    DeviceBuffer overflow_;     // int32: the last update's gradients were not all finite
};

}  // namespace lf
