#pragma once
// An execution plan: a Model compiled by one backend for one device and batch size. Steps,
// buffers and kernels are created once (graph/schedule.h decides them, the backend builds
// them); forward() and backward() then run with no allocation (the analogue of tf.function).
// The caller reaches the plan's memory only through this interface: inputs and the output's
// gradient go in, outputs and input gradients come out, as host arrays.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "layerforge/core/memory.h"
#include "layerforge/core/precision.h"

namespace lf {

class DeviceModel;
class WeightUpdate;

enum class PlanMode { Train, Infer };

struct PlanOptions {
    std::string device = "cpu";  // a device id of list_devices(): "cpu", "cuda:0", ...
    std::int64_t batch = 1;
    // A data-parallel rank's rows begin at this row of the global batch: dropout draws the masks
    // that one process training the whole batch would draw for them. 0 for a single process.
    std::int64_t first_row = 0;
    PlanMode mode = PlanMode::Train;
    std::uint64_t seed = 0;    // dropout masks
    bool input_grads = false;  // also compute d(loss)/d(input) (gradient checks, saliency)
    bool fuse = true;          // ReLU folded into BatchNormalization or run in place where legal
    // mixed_bfloat16 / mixed_float16: activations and their gradients are stored in 16 bits
    // (compute_dtype) and the ops with such a kernel run on them; the output layer, the host
    // arrays, weights and weight gradients stay float32. The device must support it
    // (Backend::precision_unsupported): the CPU has bfloat16 kernels only, a GPU both.
    Precision precision = Precision::Float32;
    // CPU: the OpenMP threads its kernels run on. 0: chosen from the work per step, one thread
    // for plans too small to share (waking the pool costs more than it saves), all otherwise.
    int threads = 0;
    // CUDA: each pass is captured once as a CUDA graph and replayed (Note [Replaying a plan's
    // passes as CUDA graphs]); off runs every pass eagerly, for debugging and comparisons (as
    // does the environment's LF_CUDA_GRAPHS=0). Other devices ignore it.
    bool cuda_graphs = true;
};

// One step of a plan (a layer, or an Input or view that runs nothing) and what it cost since the
// plan was built: wall time in its kernels, per pass, and the memory it holds.
struct LayerProfile {
    std::string node;
    std::int64_t forward_ns = 0, backward_ns = 0;  // summed over every forward() and backward()
    std::int64_t forwards = 0, backwards = 0;      // forwards that ran its kernel, backwards that reached it
    // A device that times only some passes (CUDA: Note [Kernel times on the GPU]) counts those
    // here; the times are their sum. 0 with times: every pass was timed (the CPU).
    std::int64_t timed_forwards = 0, timed_backwards = 0;
    // The buffers it introduces (its output, the gradient of its output, fan-out slots) and its
    // kernel's workspace; the plan's shared scratchpad is not split among the steps.
    std::size_t bytes = 0;
    // The type its kernel computes in: the policy's 16-bit type where the op has such a
    // kernel, float32 otherwise (with conversions at its edges when its neighbours are 16-bit).
    DType compute = DType::Float32;
};
using PlanProfile = std::vector<LayerProfile>;  // the schedule's order

// Told by backward() as it finishes each step (profile()'s order, reversed): that step's weight
// gradients are final, so a data-parallel run can start reducing them while backward goes on
// (PyTorch DDP's bucket hooks). Called on the thread that runs backward().
class BackwardListener {
public:
    virtual ~BackwardListener() = default;
    virtual void on_step_done(std::size_t step) = 0;  // an index into profile()
};

// Which array set_output_grad() receives.
enum class OutputGrad {
    Output,  // d(loss)/d(output)
    Logits,  // d(loss)/d(softmax input), when output_is_softmax(): the Softmax backward is skipped
};

class Plan {
public:
    virtual ~Plan() = default;
    Plan(const Plan&) = delete;
    Plan& operator=(const Plan&) = delete;

    const PlanOptions& options() const { return options_; }
    std::int64_t batch() const { return options_.batch; }

    virtual std::size_t input_count() const = 0;
    // Elements of one sample at input i (channels last); Input nodes in graph order.
    virtual std::int64_t input_width(std::size_t i = 0) const = 0;
    // Copies batch x input_width(i) floats into the plan.
    virtual void set_input(const float* host, std::size_t i = 0) = 0;
    virtual std::int64_t output_width() const = 0;
    // Copies the output, batch x output_width() floats, to host.
    virtual void read_output(float* host) const = 0;
    // Whether the output is softmax(logits) over the last axis; read_logits then gives the
    // logits, so a cross-entropy can work on them (stable) and return their gradient.
    virtual bool output_is_softmax() const = 0;
    virtual void read_logits(float* host) const = 0;

    virtual void forward() = 0;
    // The gradient of the loss for the last forward(), batch x output_width() floats.
    virtual void set_output_grad(const float* host, OutputGrad of = OutputGrad::Output) = 0;
    // Gradients of every weight land in the device model's gradient buffer; of activations in
    // the plan. Training plans only.
    virtual void backward() = 0;
    // Null: none (the default). Every step is reported, those without weights too.
    void set_backward_listener(BackwardListener* listener) { backward_listener_ = listener; }
    // backward(), then `device`'s optimizer step over the gradients it made (what
    // device.update(rule, lr) does), as one unit that a device may queue together: the CUDA plan
    // replays both as one captured graph. `device` is the model this plan was made from.
    virtual void backward_and_update(DeviceModel& device, WeightUpdate& rule, double lr);
    // d(loss)/d(input i) after backward(), with PlanOptions::input_grads.
    virtual void read_input_grad(float* host, std::size_t i = 0) const = 0;

    // Random streams (dropout masks) continue as if this plan had already run `steps` training
    // steps; a resumed run uses it to reproduce the masks of an uninterrupted one.
    virtual void seek_rng(std::uint64_t steps) = 0;

    // (node id, kernel implementation) for every compiled op, e.g. to spot reference kernels.
    virtual std::vector<std::pair<std::string, std::string>> kernels() const = 0;

    // The host threads its kernels run on (PlanOptions::threads as chosen); 0 where the device
    // runs them itself.
    virtual int threads() const { return 0; }

    // How the passes are launched, for the plan's description; "" where there is nothing to say
    // (the CPU). CUDA: "forward: replayed as a CUDA graph; backward and update: eager (why)".
    virtual const std::string& execution() const;

    // This plan's activations, gradients of activations and kernel workspaces, in bytes.
    virtual MemoryBreakdown memory() const = 0;

    // Every step's accumulated times and memory. Always kept: the clock is read twice per kernel
    // call into storage sized when the plan was built, so a pass allocates and locks nothing.
    // Read it between passes, on the thread that runs them.
    virtual const PlanProfile& profile() const = 0;

protected:
    explicit Plan(PlanOptions options) : options_(std::move(options)) {}
    // Backends call it in backward() after each step, in the order they finish them.
    void step_done(std::size_t step) {
        if (backward_listener_) backward_listener_->on_step_done(step);
    }
    bool has_backward_listener() const { return backward_listener_ != nullptr; }

private:
    PlanOptions options_;
    BackwardListener* backward_listener_ = nullptr;
};

}  // namespace lf
