#pragma once
// The CUDA backend's ops: one per running step of a schedule, over device buffers the plan
// owns and weights the device model owns, queued on the device model's stream. forward() and
// backward() only queue calls, and read whatever changes per step from device memory, so a pass
// can be captured as a CUDA graph (Note [Replaying a plan's passes as CUDA graphs]). Dense runs on
// cuBLAS, the convolutions on cuDNN (algorithms from its heuristics, cached per shape),
// softmax on cuDNN, the rest on the module's kernels. A layer without an op here is refused by
// name when the plan is built (cuda_op_unsupported). Each op family's file says what it needs:
// its workspace (kept between the passes, carved from the plan's block per step) and scratch
// (used within one call, one region of the block shared by every step).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/cuda/cuda_context.h"
#include "layerforge/graph/schedule.h"

namespace lf {

struct CudaOpSetup {
    const CudaContext& ctx;
    const NodeInfo& node;
    std::int64_t batch = 1;
    bool training = false;  // builds the backward pass
    bool frozen = false;    // no weight gradients
    std::vector<const float*> in;
    std::vector<float*> in_grad;  // null where the producer needs no gradient
    float* out = nullptr;
    float* out_grad = nullptr;  // d(loss)/d(out); the op may overwrite it in backward()
    std::vector<float*> w, w_grad;
    // Device memory the op asked for in cuda_op_needs(), carved from the plan's block.
    float* workspace = nullptr;
    void* scratch = nullptr;
    std::size_t scratch_bytes = 0;
    std::uint64_t seed = 0;  // the step's random stream (dropout)
    std::int64_t first_row = 0;  // ScheduleOptions::first_row
    // The plan's training steps so far, in device memory (dropout's masks follow it; seek_rng sets it).
    const std::uint64_t* step = nullptr;
};

struct CudaOpNeeds {
    std::size_t workspace_floats = 0;  // the op's own, kept from forward to backward
    std::size_t scratch_bytes = 0;     // within one call only (cuDNN's convolution workspace)
};

// What a softmax output offers a cross-entropy: its logits and where their gradient goes.
struct CudaSoftmaxTail {
    const float* logits;
    float* logits_grad;
};

class CudaOp {
public:
    virtual ~CudaOp() = default;
    virtual void forward() = 0;
    virtual void backward() = 0;
    virtual std::string impl_info() const = 0;
    virtual std::optional<CudaSoftmaxTail> softmax_tail() { return std::nullopt; }
    // The loss hands over the logits' gradient itself: backward() skips the softmax.
    virtual void fuse_softmax_into_loss(bool) {}
};

// Why the step cannot run on the CUDA backend ("" when it can): its layer has no op here.
std::string cuda_op_unsupported(const ScheduledStep& step);
// Device memory the step's op needs beside the schedule's buffers (the softmax logits of a
// Dense, a convolution's kernel in cuDNN's layout, a max pooling's argmax, ...).
CudaOpNeeds cuda_op_needs(const ScheduledStep& step, std::int64_t batch, bool training);
// Whether its backward reads its own output (an activation differentiated from its output).
bool cuda_backward_reads_output(const ScheduledStep& step, const Schedule& schedule);
std::unique_ptr<CudaOp> make_cuda_op(const CudaOpSetup& setup);

}  // namespace lf
