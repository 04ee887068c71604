// The Activation-family layers over their input's last axis (softmax normalises it).
#include "backend/cuda/cuda_activation.h"
#include "backend/cuda/cuda_op_families.h"

namespace lf {

namespace {

class ActivationOp final : public CudaOp {
public:
    explicit ActivationOp(const CudaOpSetup& s)
        : kernel_(s.ctx, *cuda_layer_activation(s.node), rows(s), s.node.inputs[0].dims.back(), s.dtype), in_(s.in[0]),
          in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]), out_(s.out), out_grad_(s.out_grad) {}

    void forward() override { kernel_.forward(in_, out_); }
    void backward() override {
        if (in_grad_ && !fused_) kernel_.backward(in_, out_, out_grad_, in_grad_);
    }
    std::string impl_info() const override {
        return (kernel_.activation().softmax() ? "cudnnSoftmax" : "lf_cuda:") + kernel_.activation().name;
    }
    std::optional<CudaSoftmaxTail> softmax_tail() override {
        if (!kernel_.activation().softmax()) return std::nullopt;
        return CudaSoftmaxTail{in_, in_grad_};
    }
    void fuse_softmax_into_loss(bool on) override { fused_ = on; }

private:
    static std::int64_t rows(const CudaOpSetup& s) {
        return s.batch * s.node.inputs[0].elements() / s.node.inputs[0].dims.back();
    }
    CudaActivationKernel kernel_;
    const float* in_;
    float* in_grad_;
    float* out_;
    float* out_grad_;
    bool fused_ = false;
};

}  // namespace

const CudaOpFamily kCudaActivation{
    .unsupported = [](const NodeInfo& n) -> std::string {
        return cuda_layer_activation(n) ? "" : ": activation '" + param_str(n.params, "activation") + "' has no CUDA kernel yet";
    },
    .needs = nullptr,
    .reads_output = [](const NodeInfo& n) {
        const auto a = cuda_layer_activation(n);
        return a && (a->softmax() || a->from_output());
    },
    .make = [](const CudaOpSetup& s) -> std::unique_ptr<CudaOp> { return std::make_unique<ActivationOp>(s); },
};

}  // namespace lf
