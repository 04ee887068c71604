#pragma once
// Backend-neutral planning: what a plan of a Model runs and which buffers it needs, as plain
// data. The order of steps, every buffer with its size and purpose, which buffers alias (views,
// folded layers, in-place ReLUs), the gradient slots of fan-outs, and the rewrites (BatchNorm +
// ReLU, ReLU past MaxPool2D, BatchNorm into a convolution at inference) are decided here once;
// a backend only allocates the buffers and builds an op per running step.
//
// Frozen layers (Node::trainable false) have no trainable weights, so a node needs a gradient
// only when a layer at or below it still trains; in training plans a frozen convolution may
// absorb a frozen BatchNormalization as at inference when neither needs a gradient.
//
// Buffers: every node that runs owns an output buffer; a view (Flatten, Reshape) or a layer
// folded into the one before it aliases its input. Gradients: a node's consumers write
// d(loss)/d(output) straight into its gradient buffer when it has one consumer; with several,
// one consumer writes that buffer and the others slots of their own, summed into it before the
// node's backward.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "layerforge/core/precision.h"
#include "layerforge/graph/model.h"

namespace lf {

struct ScheduleOptions {
    std::int64_t batch = 1;
    std::int64_t first_row = 0;  // PlanOptions::first_row
    bool training = true;
    std::uint64_t seed = 0;    // base of the steps' random streams (dropout masks)
    bool input_grads = false;  // also compute d(loss)/d(input)
    bool fuse = true;          // the rewrites below, where legal
    // A mixed policy: every buffer is of its compute type (compute_dtype) except the output
    // layer's output and its gradient, which the loss reads and writes in float32 (Keras keeps
    // the last layer float32).
    Precision precision = Precision::Float32;
};

enum class BufferKind { Activation, Gradient };

struct PlannedBuffer {
    std::size_t floats = 0;  // elements
    BufferKind kind = BufferKind::Activation;
    DType dtype = DType::Float32;
    std::size_t bytes() const { return floats * dtype_size(dtype); }
};

inline constexpr int kNoBuffer = -1;

struct StepRewrites {
    bool fuse_relu = false;       // BatchNormalization: applies the plain ReLU that is its only consumer
    // ReLU moved past max pooling (relu(maxpool(x)) == maxpool(relu(x)), gradients too): the
    // convolution leaves out its relu activation and the MaxPool2D after it applies it, to a
    // quarter of the values, so the ReLU's backward reads a quarter of the bytes.
    bool relu_moved_out = false;  // Conv2D family: skip the `activation: relu`
    bool relu_after = false;      // MaxPool2D: apply relu to the pooled output
    // Inference: the BatchNormalization that is a Conv2D's or DepthwiseConv2D's only consumer,
    // folded into the convolution's kernel and bias; `folded_norm_relu` when it had absorbed
    // the ReLU after it.
    std::string folded_norm;
    bool folded_norm_relu = false;
    bool in_place = false;        // a ReLU that overwrites its producer's output buffer
};

struct ScheduledStep {
    std::string node;
    const NodeInfo* info = nullptr;
    bool runs = false;        // a backend op computes it: not an Input, a view or a folded layer
    bool folded = false;      // runs inside the step before it (a ReLU in a BatchNormalization, ...)
    std::size_t count = 0;    // batch x output elements
    std::vector<int> in;      // one buffer per input port
    std::vector<int> in_grad; // kNoBuffer where the producer needs no gradient
    int out = kNoBuffer;
    int grad = kNoBuffer;     // d(loss)/d(output), summed over consumers
    // Fan-out > 1: one gradient buffer per consumer, summed into `grad` before this step's
    // backward; one of them may be `grad` itself (that consumer wrote it directly).
    std::vector<int> grad_slots;
    std::uint64_t seed = 0;
    // A layer with weights and `trainable: false`: no weight gradients, and a
    // BatchNormalization normalises with its moving statistics and leaves them as they are.
    // Its `grad` is kNoBuffer unless a layer below still needs a gradient, so backward stops
    // at the lowest trainable layer.
    bool frozen = false;
    StepRewrites rewrites;
};

struct Schedule {
    ScheduleOptions options;
    std::vector<PlannedBuffer> buffers;
    std::vector<ScheduledStep> steps;  // topological order
    std::vector<int> inputs;           // the Input nodes' buffers, in graph order
    std::vector<int> input_grads;      // kNoBuffer unless options.input_grads
    std::size_t output_step = 0;
    int output = kNoBuffer, output_grad = kNoBuffer;
    std::int64_t output_width = 0;

    std::size_t bytes(BufferKind kind) const;  // buffers of that kind, in bytes
    const ScheduledStep& step(const std::string& node) const;
};

// The one fact the planner needs from a backend: whether a step's backward would read its own
// output buffer, so that a ReLU after it must not overwrite that buffer.
using BackwardReadsOutput = std::function<bool(const ScheduledStep& step, const Schedule& schedule)>;

Schedule make_schedule(const Model& model, const ScheduleOptions& options, const BackwardReadsOutput& reads_output);

// The planner's ReLU rules: a ReLU whose backward can run from its output (slope >= 0, no
// threshold or cap) may run in place; a plain max(x, 0) may fold into a BatchNormalization.
bool relu_runs_in_place(const NodeInfo& node);
bool is_plain_relu(const NodeInfo& node);

}  // namespace lf
