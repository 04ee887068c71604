// CPU op for the Activation-family layers: maps the layer type and params to ActivationKernel.
#include "backend/cpu/activation_kernel.h"
#include "backend/cpu/ops.h"

namespace lf {

namespace {

struct Resolved {
    std::string name;
    ActivationParams params;
};

Resolved resolve(const NodeInfo& node) {
    const std::string& type = node.spec->type;
    const Params& p = node.params;
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
        Resolved r = resolve(s.node);
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

// ReLU-like: max(x, 0) with an optional slope below zero, as oneDNN's eltwise_relu.
bool is_activation_layer(const NodeInfo& node) {
    using Factory = std::unique_ptr<CpuOp> (*)(const OpSetup&);
    const Factory* f = node.spec->make_cpu.target<Factory>();
    return f && *f == make_activation_op;
}

bool is_eltwise_relu(const Resolved& r) {
    if (r.name == "relu" || r.name == "leaky_relu") return true;
    return r.name == "keras_relu" && r.params.threshold == 0 && r.params.max_value <= 0;
}

}  // namespace

// The sign of the output tells the slope when the slope below zero is >= 0, so the backward
// can run from the output alone.
bool relu_runs_in_place(const NodeInfo& node) {
    if (!is_activation_layer(node)) return false;
    Resolved r = resolve(node);
    return is_eltwise_relu(r) && r.params.alpha >= 0;
}

bool is_plain_relu(const NodeInfo& node) {
    if (!is_activation_layer(node)) return false;
    Resolved r = resolve(node);
    return is_eltwise_relu(r) && r.params.alpha == 0;
}

std::unique_ptr<CpuOp> make_activation_op(const OpSetup& s) { return std::make_unique<ActivationOp>(s); }

}  // namespace lf
