#pragma once
// The CUDA backend's plan: the schedule's buffers carved from one block of the device's arena
// (one allocation when the plan is built, none per step), one CudaOp per running step, queued
// on the device model's stream. Host arrays cross only in set_input (pinned, on the copy
// stream: InputStaging), set_output_grad (pinned) and read_* (which waits for the stream).
// Each pass is replayed as a CUDA graph once captured (Note [Replaying a plan's passes as CUDA
// graphs]); execution() says how the passes ran last and, where eagerly, why.
#include <memory>

#include "backend/cuda/cuda_context.h"
#include "backend/cuda/device_arena.h"
#include "layerforge/backend/plan.h"
#include "layerforge/graph/model.h"

namespace lf {

class CudaDeviceModel;

struct CudaWeights {
    float* weights = nullptr;  // device copies in the model's weight layout
    float* grads = nullptr;
};

class CudaPlan final : public Plan {
public:
    // Throws lf::Error (Input) naming the first layer without a CUDA op, or (Runtime) when the
    // arena refuses the buffers, with the batch size that fits.
    // `owner`: the device model that makes it, whose update backward_and_update() queues.
    CudaPlan(const Model& model, const PlanOptions& options, const CudaContext& ctx, DeviceArena& arena,
             CudaWeights weights, CudaDeviceModel* owner);
    ~CudaPlan() override;

    // The schedule's buffers and the ops' workspaces, without a device: what the plan would hold.
    static MemoryBreakdown estimate(const Model& model, const PlanOptions& options);
    static PlanProfile describe(const Model& model, const PlanOptions& options);

    std::size_t input_count() const override;
    std::int64_t input_width(std::size_t i) const override;
    void set_input(const float* host, std::size_t i) override;
    std::int64_t output_width() const override;
    void read_output(float* host) const override;
    bool output_is_softmax() const override;
    void read_logits(float* host) const override;
    void forward() override;
    void set_output_grad(const float* host, OutputGrad of) override;
    void backward() override;
    void backward_and_update(DeviceModel& device, WeightUpdate& rule, double lr) override;
    void read_input_grad(float* host, std::size_t i) const override;
    void seek_rng(std::uint64_t steps) override;
    std::vector<std::pair<std::string, std::string>> kernels() const override;
    MemoryBreakdown memory() const override;
    const PlanProfile& profile() const override;
    const std::string& execution() const override;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace lf
