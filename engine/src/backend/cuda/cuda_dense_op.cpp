// Dense on cuBLAS: out = act(in x kernel + bias), kernel (in, units) row-major as Keras stores it.
// In 16 bits the kernel is rounded into a 16-bit copy each forward (its workspace's tail) and
// cublasGemmEx accumulates in float32, writing the weight gradient in float32 directly.
#include "backend/cuda/cuda_activation.h"
#include "backend/cuda/cuda_op_families.h"
#include "layerforge/layers/registry.h"

namespace lf {

namespace {

CudaActivation activation_of(const NodeInfo& n) { return *cuda_activation(param_str(n.params, "activation")); }

class DenseOp final : public CudaOp {
public:
    explicit DenseOp(const CudaOpSetup& s)
        : ctx_(s.ctx), n_(s.batch), k_(s.node.inputs[0].elements()), m_(param_int(s.node.params, "units")),
          act_(s.ctx, activation_of(s.node), n_, m_, s.out, s.out_grad, s.workspace, s.training, s.dtype),
          bias_(param_bool(s.node.params, "use_bias")), frozen_(s.frozen), in_(s.in[0]),
          in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]), w_(s.w), w_grad_(s.w_grad),
          partials_(static_cast<float*>(s.scratch)), dtype_(s.dtype),
          kernel_(s.dtype == LF_CUDA_F32 ? s.w[0] : s.workspace + post_floats(s)) {}

    // The 16-bit kernel copy after the activation's floats.
    static std::size_t post_floats(const CudaOpSetup& s) {
        return CudaPostActivation::workspace_floats(activation_of(s.node), std::size_t(s.batch * param_int(s.node.params, "units")),
                                                    s.training);
    }

    void forward() override {
        if (dtype_ != LF_CUDA_F32)
            ctx_.run([&](lf_cuda_error* e) {
                return ctx_.api().cast(ctx_.get(), LF_CUDA_F32, w_[0], dtype_, kernel_, std::size_t(k_ * m_), e);
            }, "kernel to 16 bits");
        gemm(false, false, n_, m_, k_, in_, kernel_, act_.pre(), dtype_);
        if (bias_)
            ctx_.run([&](lf_cuda_error* e) { return ctx_.api().add_bias(ctx_.get(), dtype_, act_.pre(), w_[1], n_, m_, e); },
                     "bias");
        act_.forward();
    }

    void backward() override {
        const float* dpre = act_.backward();
        if (!frozen_) {
            gemm(true, false, k_, m_, n_, in_, dpre, w_grad_[0], LF_CUDA_F32);  // dW = in^T x dpre
            if (bias_)
                ctx_.run([&](lf_cuda_error* e) {
                    return ctx_.api().bias_grad(ctx_.get(), dtype_, dpre, w_grad_[1], n_, m_, 0, partials_, e);
                }, "bias gradient");
        }
        if (in_grad_) gemm(false, true, n_, k_, m_, dpre, kernel_, in_grad_, dtype_);  // dx = dpre x W^T
    }

    std::string impl_info() const override {
        return std::string(dtype_ == LF_CUDA_F32 ? "cublasSgemm" : "cublasGemmEx (16-bit, tensor cores)") +
               (bias_ ? "+bias" : "") + "+" + act_.name();
    }
    std::optional<CudaSoftmaxTail> softmax_tail() override {
        if (!act_.softmax()) return std::nullopt;
        return CudaSoftmaxTail{act_.logits(), act_.logits_grad()};
    }
    void fuse_softmax_into_loss(bool on) override { act_.fuse_softmax_into_loss(on); }

private:
    // C in c_dtype from A and B in the op's type: sgemm in float32, else cublasGemmEx.
    void gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const float* a, const float* b,
              float* c, int c_dtype) const {
        if (dtype_ == LF_CUDA_F32)
            return ctx_.run([&](lf_cuda_error* e) { return ctx_.api().sgemm(ctx_.get(), ta, tb, m, n, k, 1.f, a, b, 0.f, c, e); },
                            "cublasSgemm");
        ctx_.run([&](lf_cuda_error* e) { return ctx_.api().gemm(ctx_.get(), ta, tb, m, n, k, dtype_, c_dtype, a, b, 0, c, e); },
                 "cublasGemmEx");
    }
    const CudaContext& ctx_;
    std::int64_t n_, k_, m_;
    CudaPostActivation act_;
    bool bias_, frozen_;
    const float* in_;
    float* in_grad_;
    std::vector<float*> w_, w_grad_;
    float* partials_;  // the bias gradient's partial sums, in the plan's scratch
    int dtype_;
    float* kernel_;  // the float32 kernel, or its 16-bit copy in the workspace
};

}  // namespace

std::string cuda_activation_unsupported(const std::string& name) {
    return cuda_activation(name) ? "" : ": activation '" + name + "' has no CUDA kernel yet";
}

const CudaOpFamily kCudaDense{
    .unsupported = [](const NodeInfo& n) { return cuda_activation_unsupported(param_str(n.params, "activation")); },
    .needs = [](const NodeInfo& n, std::int64_t batch, bool training, DType dtype) {
        const std::size_t count = std::size_t(batch * param_int(n.params, "units"));
        const bool bias_grad = training && param_bool(n.params, "use_bias");
        const std::size_t kernel = std::size_t(n.inputs[0].elements() * param_int(n.params, "units"));
        const std::size_t kernel_copy = dtype == DType::Float32 ? 0 : (kernel + 1) / 2;  // 16-bit values in float slots
        return CudaOpNeeds{.workspace_floats = CudaPostActivation::workspace_floats(activation_of(n), count, training) + kernel_copy,
                           .scratch_bytes = bias_grad ? LF_CUDA_REDUCE_FLOATS(param_int(n.params, "units")) * sizeof(float) : 0};
    },
    .reads_output = [](const NodeInfo& n) { return activation_of(n).softmax() || activation_of(n).from_output(); },
    .make = [](const CudaOpSetup& s) -> std::unique_ptr<CudaOp> { return std::make_unique<DenseOp>(s); },
};

}  // namespace lf
