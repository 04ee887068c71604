// CPU op for the Activation-family layers: maps the layer type and params to ActivationKernel.
#include "backend/cpu/activation_kernel.h"
#include "backend/cpu/ops.h"
#include "layerforge/core/error.h"

namespace lf {

namespace {

struct Resolved {
    std::string name;
    ActivationParams params;
};

Resolved resolve(const NodeInfo& node) {
    const Params& p = node.params;
    switch (node.spec->op) {
    case LayerOp::Activation: return {param_str(p, "activation")};
    case LayerOp::ReLU:
        return {"keras_relu", {param_float(p, "negative_slope"), param_float(p, "threshold"), param_float(p, "max_value")}};
    case LayerOp::LeakyReLU: return {"leaky_relu", {param_float(p, "alpha")}};
    case LayerOp::Sigmoid: return {"sigmoid"};
    case LayerOp::Tanh: return {"tanh"};
    case LayerOp::GELU: return {param_bool(p, "approximate") ? "gelu_tanh" : "gelu"};
    case LayerOp::Softmax: return {"softmax"};
    default: throw runtime_error("layer type '" + node.spec->type + "' is not an activation");
    }
}

class ActivationOp : public CpuOp {
public:
    explicit ActivationOp(const OpSetup& s) {
        Resolved r = resolve(s.node);
        const Shape& shape = s.node.inputs[0];
        std::int64_t cols = shape.dims.back(), rows = s.batch * shape.elements() / cols;
        in_ = s.in[0];
        in_grad_ = s.in_grad.empty() ? nullptr : s.in_grad[0];
        kernel_.emplace(s.ctx, r.name, r.params, rows, cols, s.in[0], s.out, s.out_grad, in_grad_, s.training, s.dtype);
    }
    void forward() override { kernel_->forward(); }
    void backward() override {
        if (!fused_) kernel_->backward();
    }
    std::string impl_info() const override { return kernel_->impl_info(); }
    bool backward_reads_output() const override { return kernel_->backward_reads_dst(); }
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
