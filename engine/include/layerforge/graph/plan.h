#pragma once
// An execution plan: a Model compiled for one batch size. Topological order, every buffer and
// every backend primitive is created here once; forward(), train_step() and backward() then
// run with no allocation (the analogue of tf.function).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "layerforge/graph/memory.h"
#include "layerforge/graph/model.h"

namespace lf {

class Loss;

enum class PlanMode { Train, Infer };

struct PlanOptions {
    std::int64_t batch = 1;
    PlanMode mode = PlanMode::Train;
    std::uint64_t seed = 0;    // dropout masks
    bool input_grads = false;  // also compute d(loss)/d(input) (gradient checks, saliency)
    bool fuse = true;          // ReLU folded into BatchNormalization or run in place where legal
};

class Plan {
public:
    Plan(Model& model, const PlanOptions& options);
    ~Plan();
    Plan(const Plan&) = delete;
    Plan& operator=(const Plan&) = delete;

    std::int64_t batch() const;
    std::size_t input_count() const;
    float* input(std::size_t i = 0);  // batch x sample elements, channels last; Input nodes in graph order
    const float* output() const;      // batch x output_width()
    std::int64_t output_width() const;

    void forward();
    // Loss of the current output against labels without gradients (evaluation).
    double loss(const std::int32_t* labels, const Loss& loss) const;
    // forward + loss + backward: gradients land in model.grads(); returns the mean loss.
    double train_step(const std::int32_t* labels, const Loss& loss);

    // For tests and custom losses: set output_grad() then call backward().
    float* output_grad();
    void backward();
    const float* input_grad(std::size_t i = 0) const;

    // Random streams (dropout masks) continue as if this plan had already run `steps` training
    // steps; a resumed run uses it to reproduce the masks of an uninterrupted one.
    void seek_rng(std::uint64_t steps);

    // (node id, kernel implementation) for every compiled op, e.g. to spot reference kernels.
    std::vector<std::pair<std::string, std::string>> kernels() const;

    // This plan's activations, gradients of activations and kernel workspaces, in bytes.
    MemoryBreakdown memory() const;
    // The part of memory().workspaces that is oneDNN's scratchpad: one buffer the plan's
    // primitives share, as large as the largest one needs.
    std::size_t scratchpad_bytes() const;
    // The same without allocating the plan's buffers or registering anything: the kernels are
    // chosen (so workspaces and oneDNN's scratchpad are counted) but never run.
    static MemoryBreakdown estimate(const Model& model, const PlanOptions& options);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace lf
