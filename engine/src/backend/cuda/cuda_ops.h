#pragma once
// The CUDA backend's ops: one per running step of a schedule, over device buffers the plan
// owns and weights the device model owns, queued on the device model's stream. Dense runs on
// cuBLAS, the Activation family and Add on the module's kernels, softmax on cuDNN. A layer without an
// op here is refused by name when the plan is built (cuda_op_unsupported).
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
    // Device memory the op asked for in workspace_floats(), carved from the plan's block.
    float* workspace = nullptr;
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
// Floats of device workspace the step's op needs (the softmax logits of a Dense, ...).
std::size_t cuda_op_workspace_floats(const ScheduledStep& step, std::int64_t batch, bool training);
// Whether its backward reads its own output (an activation differentiated from its output).
bool cuda_backward_reads_output(const ScheduledStep& step, const Schedule& schedule);
std::unique_ptr<CudaOp> make_cuda_op(const CudaOpSetup& setup);

}  // namespace lf
