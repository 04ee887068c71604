#pragma once
// Note [Replaying a plan's passes as CUDA graphs]
// A plan's shapes are fixed when it is built (one plan per batch size: a partial last batch has
// a plan, and graphs, of its own), so each pass queues the same calls on the same buffers every
// step, and a small model's step is bound by their launches. The plan therefore captures each
// pass once into a CUDA graph and replays it. Whatever changes from step to step lies in device
// memory that the calls read when they run, so a replay does exactly what the eager pass does:
// the batch (moved into the plan's input buffer before the pass, InputStaging), dropout's step
// (a counter the training forward pass advances itself), the optimizer's constants (the
// learning rate, Adam's bias correction: copied by the device model before the pass), the
// output's gradient (uploaded before backward). Pointers never change.
// The loss and the metrics are computed on the host from the downloaded output (HostLoss), so
// a training step is two graphs: the forward pass, and the backward pass with the optimizer's
// update; the output's download between them is the step's one host synchronisation.
// Host state that changes what a pass queues selects a variant with its own graph: whether the
// loss hands over the logits' gradient (the softmax backward is skipped) and the update's rule.
// A pass (and variant) runs eagerly the first time (cuBLAS and cuDNN set themselves up lazily,
// which a capture forbids), is captured the second time and replayed from then on. It stays
// eager, with the reason in describe(): graphs off (PlanOptions::cuda_graphs, LF_CUDA_GRAPHS=0),
// a run that must be eager (data-parallel backward: the gradient sums start from the host
// between its steps, NCCL on its own stream, and the update waits for them on the host), or a
// capture that failed (a call that synchronises with the host, or one the driver refuses).
#include <array>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "backend/cuda/cuda_context.h"

namespace lf {

enum class GraphPass { Forward = 0, Backward = 1 };

// A pass's queueing function, referred to for one call without copying it (no allocation).
class QueueRef {
public:
    template <class F>
    QueueRef(F&& f)  // NOLINT: made from lambdas at the call
        : obj_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
          call_([](void* o) { (*static_cast<std::remove_reference_t<F>*>(o))(); }) {}
    void operator()() const { call_(obj_); }

private:
    void* obj_;
    void (*call_)(void*);
};

// Why every pass must run eagerly ("" when graphs may be used): the plan's option off, or the
// environment's LF_CUDA_GRAPHS set to 0 / off / false.
std::string graphs_off_reason(bool option_on);

class StepGraphs {
public:
    StepGraphs(const CudaContext& ctx, std::string off_reason);
    ~StepGraphs();
    StepGraphs(const StepGraphs&) = delete;
    StepGraphs& operator=(const StepGraphs&) = delete;

    // Runs the pass whose calls `queue` queues on the compute stream: eagerly, captured, or as
    // the replay of its capture (then `queue` is not called). `eager_why` (a literal, or null)
    // makes this run eager. Errors of the calls propagate as lf::Error.
    void run(GraphPass pass, int variant, QueueRef queue, const char* eager_why = nullptr);

    // How each pass ran last: "forward: replayed as a CUDA graph; backward and update: eager
    // (...)". Rebuilt only when that changes: reading it allocates nothing per step.
    const std::string& describe() const { return description_; }
    int captured() const { return captured_; }  // graphs made so far
    int replayed() const { return replayed_; }  // launches of them, the capturing runs' included

private:
    enum class Ran { Never, Warmup, Graph, Eager };
    struct Entry {
        int runs = 0;
        lf_cuda_graph* graph = nullptr;
        std::string failed;  // why its capture failed: it stays eager
    };
    void note(GraphPass pass, Ran ran, const char* why);
    void capture(Entry& e, GraphPass pass, QueueRef queue);
    void launch(const Entry& e);

    const CudaContext& ctx_;
    std::string off_;
    std::map<std::pair<int, int>, Entry> entries_;
    std::array<Ran, 2> ran_{Ran::Never, Ran::Never};
    std::array<const char*, 2> why_{};
    std::string description_;
    int captured_ = 0, replayed_ = 0;
};

}  // namespace lf
