#pragma once
// The CPU backend's plan: the schedule's buffers as host arrays and one oneDNN (or plain-loop)
// op per running step, over weights and gradients held elsewhere (the device model's arrays),
// so another backend may run these kernels on buffers of its own.
#include <memory>

#include "layerforge/backend/plan.h"
#include "layerforge/graph/model.h"

namespace lf {

struct WeightMemory {
    float* weights = nullptr;  // the model's weight layout: WeightRef offsets index both
    float* grads = nullptr;
};

class CpuPlan final : public Plan {
public:
    CpuPlan(const Model& model, const PlanOptions& options, WeightMemory memory);
    ~CpuPlan() override;

    // What CpuPlan(model, options, ...) would hold, without allocating or registering anything.
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
    // The update runs on the plan's threads too: a plan that chose one thread would otherwise
    // wake the whole pool for it (the MLP template's Adam step: 0.018 ms on one, 0.048 on two).
    void backward_and_update(DeviceModel& device, WeightUpdate& rule, double lr) override;
    void read_input_grad(float* host, std::size_t i) const override;
    void seek_rng(std::uint64_t steps) override;
    std::vector<std::pair<std::string, std::string>> kernels() const override;
    MemoryBreakdown memory() const override;
    int threads() const override;
    const PlanProfile& profile() const override;

    // The part of memory().workspaces that is oneDNN's scratchpad: one buffer the plan's
    // primitives share, as large as the largest one needs.
    std::size_t scratchpad_bytes() const;

private:
    struct Impl;
    CpuPlan(const Model& model, const PlanOptions& options, WeightMemory memory, bool count_only);
    std::unique_ptr<Impl> impl_;
};

}  // namespace lf
