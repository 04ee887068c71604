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
//
// Note [Mixed precision on the CUDA backend]
// Under mixed_bfloat16 or mixed_float16 an op's activation arrays (in, out and their gradients,
// and what it keeps of them in its workspace) are stored in the schedule's 16-bit type, passed
// as `dtype`, and every kernel computes in float32 between a widening load and a rounding
// store. Weights, their gradients, biases and normalization statistics stay float32: a
// convolution transposes its kernel into a 16-bit KRSC copy each forward and its 16-bit filter
// gradient back into the float32 gradients, a Dense rounds its kernel into a 16-bit copy and
// has cuBLAS write its weight gradient in float32 directly. cuDNN and cuBLAS run those on
// tensor cores, accumulating in float32. Pointers stay `float*`: they address storage, as the
// CPU plan's bf16 buffers do. The output layer computes in float32 (Keras' advice, and the
// loss reads float32): the plan widens its 16-bit inputs into float32 copies and rounds their
// gradients back (CudaPlan's input islands).
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
    int dtype = LF_CUDA_F32;  // lf_cuda_dtype of the activation arrays (Note [Mixed precision on the CUDA backend])
    std::size_t elem() const { return lf_cuda_dtype_bytes(dtype); }
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

// `p` advanced by `elements` of `elem` bytes: storage pointers are float* whatever they hold.
inline float* advance(float* p, std::size_t elements, std::size_t elem) {
    return reinterpret_cast<float*>(reinterpret_cast<char*>(p) + elements * elem);
}
inline const float* advance(const float* p, std::size_t elements, std::size_t elem) {
    return reinterpret_cast<const float*>(reinterpret_cast<const char*>(p) + elements * elem);
}

// Why the step cannot run on the CUDA backend ("" when it can): its layer has no op here.
std::string cuda_op_unsupported(const ScheduledStep& step);
// Device memory the step's op needs beside the schedule's buffers (the softmax logits of a
// Dense, a convolution's kernel in cuDNN's layout, a max pooling's argmax, ...).
CudaOpNeeds cuda_op_needs(const ScheduledStep& step, std::int64_t batch, bool training, DType dtype = DType::Float32);
// The module's lf_cuda_dtype for a buffer type.
int cuda_dtype(DType t);
// Whether its backward reads its own output (an activation differentiated from its output).
bool cuda_backward_reads_output(const ScheduledStep& step, const Schedule& schedule);
std::unique_ptr<CudaOp> make_cuda_op(const CudaOpSetup& setup);

}  // namespace lf
