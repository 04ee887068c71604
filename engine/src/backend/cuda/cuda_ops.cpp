#include "backend/cuda/cuda_ops.h"

#include "layerforge/core/error.h"
#include "layerforge/layers/layer_op.h"
#include "layerforge/layers/registry.h"

namespace lf {

namespace {

// The activations the module's kernels compute, by their Keras names; "linear" runs nothing
// and "softmax" goes to cuDNN. -1: none of these.
int kernel_activation(const std::string& name) {
    if (name == "relu") return LF_CUDA_RELU;
    if (name == "sigmoid") return LF_CUDA_SIGMOID;
    if (name == "tanh") return LF_CUDA_TANH;
    return -1;
}

bool known_activation(const std::string& name) {
    return name == "linear" || name == "softmax" || kernel_activation(name) >= 0;
}

// The activation an Activation-family step applies, or "" when it is not one of the known ones.
std::string layer_activation(const NodeInfo& n) {
    switch (n.spec->op) {
    case LayerOp::Activation: return param_str(n.params, "activation");
    case LayerOp::ReLU: return is_plain_relu(n) ? "relu" : "";
    case LayerOp::Sigmoid: return "sigmoid";
    case LayerOp::Tanh: return "tanh";
    case LayerOp::Softmax: return "softmax";
    default: return "";
    }
}

// f over rows x cols from x into y, and back: dx from y and dy. Softmax keeps the pre-softmax
// values (the logits) for a loss that works on them.
class Activation {
public:
    Activation(const CudaContext& ctx, std::string name, std::int64_t rows, std::int64_t cols)
        : ctx_(ctx), name_(std::move(name)), kind_(kernel_activation(name_)), rows_(rows), cols_(cols) {}

    void forward(const float* x, float* y) const {
        const lf_cuda_api& a = ctx_.api();
        if (name_ == "softmax")
            ctx_.run([&](lf_cuda_error* e) { return a.softmax_forward(ctx_.get(), x, y, rows_, cols_, e); }, "softmax");
        else if (kind_ >= 0)
            ctx_.run([&](lf_cuda_error* e) { return a.activation_forward(ctx_.get(), kind_, x, y, count(), e); },
                     name_.c_str());
    }
    // dx may be dy (element-wise, each value read before it is written).
    void backward(const float* y, const float* dy, float* dx) const {
        const lf_cuda_api& a = ctx_.api();
        if (name_ == "softmax")
            ctx_.run([&](lf_cuda_error* e) { return a.softmax_backward(ctx_.get(), y, dy, dx, rows_, cols_, e); },
                     "softmax backward");
        else if (kind_ >= 0)
            ctx_.run([&](lf_cuda_error* e) { return a.activation_backward(ctx_.get(), kind_, y, dy, dx, count(), e); },
                     name_.c_str());
    }
    bool is_softmax() const { return name_ == "softmax"; }
    bool is_identity() const { return name_ == "linear"; }
    const std::string& name() const { return name_; }

private:
    std::size_t count() const { return std::size_t(rows_ * cols_); }
    const CudaContext& ctx_;
    std::string name_;
    int kind_;
    std::int64_t rows_, cols_;
};

// out = act(in x kernel + bias), kernel (in, units) row-major as Keras stores it. A softmax
// writes the logits to the workspace first; the other activations run in place on out, and
// their backward in place on out_grad, which nothing reads after this step's backward.
class DenseOp final : public CudaOp {
public:
    explicit DenseOp(const CudaOpSetup& s)
        : ctx_(s.ctx), act_(s.ctx, param_str(s.node.params, "activation"), s.batch, param_int(s.node.params, "units")),
          n_(s.batch), k_(s.node.inputs[0].elements()), m_(param_int(s.node.params, "units")),
          bias_(param_bool(s.node.params, "use_bias")), frozen_(s.frozen), in_(s.in[0]),
          in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]), out_(s.out), out_grad_(s.out_grad), w_(s.w),
          w_grad_(s.w_grad) {
        if (act_.is_softmax()) {
            logits_ = s.workspace;
            logits_grad_ = s.training ? s.workspace + n_ * m_ : nullptr;
        }
    }

    void forward() override {
        float* pre = act_.is_softmax() ? logits_ : out_;
        gemm(false, false, n_, m_, k_, in_, w_[0], pre);
        if (bias_)
            ctx_.run([&](lf_cuda_error* e) { return ctx_.api().add_bias(ctx_.get(), pre, w_[1], n_, m_, e); }, "bias");
        act_.forward(pre, out_);
    }

    void backward() override {
        const float* dpre = out_grad_;
        if (act_.is_softmax()) {
            if (!fused_) act_.backward(out_, out_grad_, logits_grad_);
            dpre = logits_grad_;
        } else if (!act_.is_identity()) {
            act_.backward(out_, out_grad_, out_grad_);
        }
        if (!frozen_) {
            gemm(true, false, k_, m_, n_, in_, dpre, w_grad_[0]);  // dW = in^T x dpre
            if (bias_)
                ctx_.run([&](lf_cuda_error* e) {
                    return ctx_.api().bias_grad(ctx_.get(), dpre, w_grad_[1], n_, m_, 0, e);
                }, "bias gradient");
        }
        if (in_grad_) gemm(false, true, n_, k_, m_, dpre, w_[0], in_grad_);  // dx = dpre x W^T
    }

    std::string impl_info() const override { return "cublasSgemm" + std::string(bias_ ? "+bias" : "") + "+" + act_.name(); }
    std::optional<CudaSoftmaxTail> softmax_tail() override {
        if (!act_.is_softmax()) return std::nullopt;
        return CudaSoftmaxTail{logits_, logits_grad_};
    }
    void fuse_softmax_into_loss(bool on) override { fused_ = on; }

private:
    void gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const float* a, const float* b,
              float* c) const {
        ctx_.run([&](lf_cuda_error* e) { return ctx_.api().sgemm(ctx_.get(), ta, tb, m, n, k, 1.f, a, b, 0.f, c, e); },
                 "cublasSgemm");
    }
    const CudaContext& ctx_;
    Activation act_;
    std::int64_t n_, k_, m_;
    bool bias_, frozen_, fused_ = false;
    const float* in_;
    float* in_grad_;
    float* out_;
    float* out_grad_;
    std::vector<float*> w_, w_grad_;
    float* logits_ = nullptr;
    float* logits_grad_ = nullptr;
};

// An Activation-family layer over its input's last axis.
class ActivationOp final : public CudaOp {
public:
    explicit ActivationOp(const CudaOpSetup& s)
        : act_(s.ctx, layer_activation(s.node), rows(s), s.node.inputs[0].dims.back()), in_(s.in[0]),
          in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]), out_(s.out), out_grad_(s.out_grad),
          count_(std::size_t(s.batch * s.node.inputs[0].elements())), ctx_(s.ctx) {}

    void forward() override {
        if (act_.is_identity()) return copy(in_, out_);
        act_.forward(in_, out_);
    }
    void backward() override {
        if (!in_grad_ || fused_) return;
        if (act_.is_identity()) return copy(out_grad_, in_grad_);
        act_.backward(out_, out_grad_, in_grad_);
    }
    std::string impl_info() const override { return (act_.is_softmax() ? "cudnnSoftmax" : "lf_cuda:") + act_.name(); }
    std::optional<CudaSoftmaxTail> softmax_tail() override {
        if (!act_.is_softmax()) return std::nullopt;
        return CudaSoftmaxTail{in_, in_grad_};
    }
    void fuse_softmax_into_loss(bool on) override { fused_ = on; }

private:
    static std::int64_t rows(const CudaOpSetup& s) {
        return s.batch * s.node.inputs[0].elements() / s.node.inputs[0].dims.back();
    }
    // A linear Activation: its output is its input, and its input's gradient its output's.
    void copy(const float* from, float* to) const {
        ctx_.run([&](lf_cuda_error* e) {
            return ctx_.api().copy_on_device(ctx_.get(), to, from, count_ * sizeof(float), e);
        }, "copy");
    }
    Activation act_;
    const float* in_;
    float* in_grad_;
    float* out_;
    float* out_grad_;
    std::size_t count_;
    const CudaContext& ctx_;
    bool fused_ = false;
};

// Add: out = sum of the inputs (all of one shape, as the layer requires); each input's
// gradient is the output's.
class AddOp final : public CudaOp {
public:
    explicit AddOp(const CudaOpSetup& s)
        : ctx_(s.ctx), in_(s.in), in_grad_(s.in_grad), out_(s.out), out_grad_(s.out_grad),
          count_(std::size_t(s.batch * s.node.layer.output.elements())) {}

    void forward() override {
        copy(in_[0], out_);
        for (std::size_t i = 1; i < in_.size(); ++i)
            ctx_.run([&](lf_cuda_error* e) { return ctx_.api().add(ctx_.get(), out_, in_[i], count_, e); }, "add");
    }
    void backward() override {
        for (float* g : in_grad_)
            if (g) copy(out_grad_, g);
    }
    std::string impl_info() const override { return "lf_cuda:add"; }

private:
    void copy(const float* from, float* to) const {
        ctx_.run([&](lf_cuda_error* e) { return ctx_.api().copy_on_device(ctx_.get(), to, from, count_ * 4, e); },
                 "copy");
    }
    const CudaContext& ctx_;
    std::vector<const float*> in_;
    std::vector<float*> in_grad_;
    float* out_;
    float* out_grad_;
    std::size_t count_;
};

}  // namespace

std::string cuda_op_unsupported(const ScheduledStep& step) {
    if (!step.runs) return "";
    const NodeInfo& n = *step.info;
    const std::string what = "layer '" + step.node + "' (" + n.spec->type + ")";
    switch (n.spec->op) {
    case LayerOp::Dense: {
        const std::string a = param_str(n.params, "activation");
        return known_activation(a) ? "" : what + ": activation '" + a + "' has no CUDA kernel yet";
    }
    case LayerOp::Activation:
    case LayerOp::ReLU:
    case LayerOp::Sigmoid:
    case LayerOp::Tanh:
    case LayerOp::Softmax: {
        const std::string a = layer_activation(n);
        if (a.empty()) return what + ": only max(x, 0) has a CUDA kernel yet (no slope, threshold or cap)";
        return known_activation(a) ? "" : what + ": activation '" + a + "' has no CUDA kernel yet";
    }
    case LayerOp::Add: return "";
    default: return what + " has no CUDA kernel yet; train this model on the CPU";
    }
}

std::size_t cuda_op_workspace_floats(const ScheduledStep& step, std::int64_t batch, bool training) {
    if (!step.runs || step.info->spec->op != LayerOp::Dense) return 0;
    if (param_str(step.info->params, "activation") != "softmax") return 0;
    const std::size_t logits = std::size_t(batch * param_int(step.info->params, "units"));
    return training ? 2 * logits : logits;
}

bool cuda_backward_reads_output(const ScheduledStep& step, const Schedule&) {
    if (!step.runs) return false;
    const NodeInfo& n = *step.info;
    if (n.spec->op == LayerOp::Dense) return param_str(n.params, "activation") != "linear";
    const std::string a = layer_activation(n);
    return !a.empty() && a != "linear";
}

std::unique_ptr<CudaOp> make_cuda_op(const CudaOpSetup& s) {
    if (s.node.spec->op == LayerOp::Dense) return std::make_unique<DenseOp>(s);
    if (s.node.spec->op == LayerOp::Add) return std::make_unique<AddOp>(s);
    return std::make_unique<ActivationOp>(s);
}

}  // namespace lf
