// CPU op for the Activation-family layers: maps the layer type and params to ActivationKernel.
#include "backend/cpu/activation_kernel.h"
#include "backend/cpu/ops.h"

namespace lf {

namespace {

struct Resolved {
    std::string name;
    ActivationParams params;
};

Resolved resolve(const OpSetup& s) {
    const std::string& type = s.node.spec->type;
    const Params& p = s.node.params;
    if (type == "Activation") return {param_str(p, "activation")};
    if (type == "ReLU")
        return {"keras_relu", {param_float(p, "negative_slope"), param_float(p, "threshold"), param_float(p, "max_value")}};
    if (type == "LeakyReLU") return {"leaky_relu", {param_float(p, "alpha")}};
    if (type == "Sigmoid") return {"sigmoid"};
    if (type == "Tanh") return {"tanh"};
    if (type == "GELU") return {param_bool(p, "approximate") ? "gelu_tanh" : "gelu"};
    return {"softmax"};
}

class ActivationOp : public CpuOp {
public:
    explicit ActivationOp(const OpSetup& s) {
        Resolved r = resolve(s);
        const Shape& shape = s.node.inputs[0];
        std::int64_t cols = shape.dims.back(), rows = s.batch * shape.elements() / cols;
        in_ = s.in[0];
        in_grad_ = s.in_grad.empty() ? nullptr : s.in_grad[0];
        kernel_.emplace(s.ctx, r.name, r.params, rows, cols, s.in[0], s.out, s.out_grad, in_grad_, s.training);
    }
    void forward() override { kernel_->forward(); }
    void backward() override {
        if (!fused_) kernel_->backward();
    }
    std::string impl_info() const override { return kernel_->impl_info(); }
    std::optional<SoftmaxTail> softmax_tail() override {
        if (!kernel_->is_softmax()) return std::nullopt;
        return SoftmaxTail{in_, in_grad_};
    }
    void fuse_softmax_into_loss(bool on) override { fused_ = on; }

private:
    const float* in_;
    float* in_grad_;
    std::optional<ActivationKernel> kernel_;
    bool fused_ = false;
};

}  // namespace

std::unique_ptr<CpuOp> make_activation_op(const OpSetup& s) { return std::make_unique<ActivationOp>(s); }

}  // namespace lf
