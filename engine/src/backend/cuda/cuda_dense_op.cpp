// Dense on cuBLAS: out = act(in x kernel + bias), kernel (in, units) row-major as Keras stores it.
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
          act_(s.ctx, activation_of(s.node), n_, m_, s.out, s.out_grad, s.workspace, s.training),
          bias_(param_bool(s.node.params, "use_bias")), frozen_(s.frozen), in_(s.in[0]),
          in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]), w_(s.w), w_grad_(s.w_grad),
          partials_(static_cast<float*>(s.scratch)) {}

    void forward() override {
        gemm(false, false, n_, m_, k_, in_, w_[0], act_.pre());
        if (bias_)
            ctx_.run([&](lf_cuda_error* e) { return ctx_.api().add_bias(ctx_.get(), act_.pre(), w_[1], n_, m_, e); },
                     "bias");
        act_.forward();
    }

    void backward() override {
        const float* dpre = act_.backward();
        if (!frozen_) {
            gemm(true, false, k_, m_, n_, in_, dpre, w_grad_[0]);  // dW = in^T x dpre
            if (bias_)
                ctx_.run([&](lf_cuda_error* e) { return ctx_.api().bias_grad(ctx_.get(), dpre, w_grad_[1], n_, m_, 0, partials_, e); },
                         "bias gradient");
        }
        if (in_grad_) gemm(false, true, n_, k_, m_, dpre, w_[0], in_grad_);  // dx = dpre x W^T
    }

    std::string impl_info() const override { return "cublasSgemm" + std::string(bias_ ? "+bias" : "") + "+" + act_.name(); }
    std::optional<CudaSoftmaxTail> softmax_tail() override {
        if (!act_.softmax()) return std::nullopt;
        return CudaSoftmaxTail{act_.logits(), act_.logits_grad()};
    }
    void fuse_softmax_into_loss(bool on) override { act_.fuse_softmax_into_loss(on); }

private:
    void gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const float* a, const float* b,
              float* c) const {
        ctx_.run([&](lf_cuda_error* e) { return ctx_.api().sgemm(ctx_.get(), ta, tb, m, n, k, 1.f, a, b, 0.f, c, e); },
                 "cublasSgemm");
    }
    const CudaContext& ctx_;
    std::int64_t n_, k_, m_;
    CudaPostActivation act_;
    bool bias_, frozen_;
    const float* in_;
    float* in_grad_;
    std::vector<float*> w_, w_grad_;
    float* partials_;  // the bias gradient's partial sums, in the plan's scratch
};

}  // namespace

std::string cuda_activation_unsupported(const std::string& name) {
    return cuda_activation(name) ? "" : ": activation '" + name + "' has no CUDA kernel yet";
}

const CudaOpFamily kCudaDense{
    .unsupported = [](const NodeInfo& n) { return cuda_activation_unsupported(param_str(n.params, "activation")); },
    .needs = [](const NodeInfo& n, std::int64_t batch, bool training) {
        const std::size_t count = std::size_t(batch * param_int(n.params, "units"));
        const bool bias_grad = training && param_bool(n.params, "use_bias");
        return CudaOpNeeds{.workspace_floats = CudaPostActivation::workspace_floats(activation_of(n), count, training),
                           .scratch_bytes = bias_grad ? LF_CUDA_REDUCE_FLOATS(param_int(n.params, "units")) * sizeof(float) : 0};
    },
    .reads_output = [](const NodeInfo& n) { return activation_of(n).softmax() || activation_of(n).from_output(); },
    .make = [](const CudaOpSetup& s) -> std::unique_ptr<CudaOp> { return std::make_unique<DenseOp>(s); },
};

}  // namespace lf
