#include "backend/cuda/cuda_activation.h"

#include <limits>

#include "layerforge/layers/layer_op.h"
#include "layerforge/layers/registry.h"

namespace lf {

namespace {

std::optional<CudaActivation> kernel(const std::string& name, int kind, float alpha = 0, float threshold = 0,
                                     float max_value = 0) {
    return CudaActivation{name, {kind, alpha, threshold, max_value}};
}

// Keras' ReLU layer as the CPU backend computes it (backend/cpu/activation_kernel.cpp): oneDNN's
// relu with a slope, or its clip for a plain cap; the general form with a threshold, or with a
// cap and a slope together, as the loop.
std::optional<CudaActivation> keras_relu(const Params& p) {
    const float slope = float(param_float(p, "negative_slope")), threshold = float(param_float(p, "threshold"));
    const float cap = float(param_float(p, "max_value"));
    if (threshold == 0 && (cap <= 0 || slope == 0)) {
        if (cap > 0) return kernel("relu capped", LF_CUDA_CLIP, 0, 0, cap);
        return slope == 0 ? kernel("relu", LF_CUDA_RELU) : kernel("leaky_relu", LF_CUDA_LEAKY_RELU, slope);
    }
    return kernel("keras_relu", LF_CUDA_KERAS_RELU, slope, threshold,
                  cap > 0 ? cap : std::numeric_limits<float>::infinity());
}

}  // namespace

std::optional<CudaActivation> cuda_activation(const std::string& name) {
    if (name == "linear" || name == "softmax") return CudaActivation{name};
    if (name == "relu") return kernel(name, LF_CUDA_RELU);
    if (name == "sigmoid") return kernel(name, LF_CUDA_SIGMOID);
    if (name == "tanh") return kernel(name, LF_CUDA_TANH);
    if (name == "gelu") return kernel(name, LF_CUDA_GELU);
    if (name == "elu") return kernel(name, LF_CUDA_ELU, 1.f);
    if (name == "swish" || name == "silu") return kernel(name, LF_CUDA_SWISH, 1.f);
    if (name == "exponential") return kernel(name, LF_CUDA_EXP);
    if (name == "hard_sigmoid") return kernel(name, LF_CUDA_HARD_SIGMOID);
    if (name == "hard_swish" || name == "hard_silu") return kernel(name, LF_CUDA_HARD_SWISH);
    return std::nullopt;
}

std::optional<CudaActivation> cuda_layer_activation(const NodeInfo& n) {
    const Params& p = n.params;
    switch (n.spec->op) {
    case LayerOp::Activation: return cuda_activation(param_str(p, "activation"));
    case LayerOp::ReLU: return keras_relu(p);
    case LayerOp::LeakyReLU: return kernel("leaky_relu", LF_CUDA_LEAKY_RELU, float(param_float(p, "alpha")));
    case LayerOp::Sigmoid: return cuda_activation("sigmoid");
    case LayerOp::Tanh: return cuda_activation("tanh");
    case LayerOp::GELU: return param_bool(p, "approximate") ? kernel("gelu_tanh", LF_CUDA_GELU_TANH) : cuda_activation("gelu");
    case LayerOp::Softmax: return cuda_activation("softmax");
    default: return std::nullopt;
    }
}

CudaActivationKernel::CudaActivationKernel(const CudaContext& ctx, CudaActivation a, std::int64_t rows, std::int64_t cols,
                                           int dtype)
    : ctx_(ctx), a_(std::move(a)), rows_(rows), cols_(cols), dtype_(dtype) {}

void CudaActivationKernel::forward(const float* x, float* y) const {
    const lf_cuda_api& api = ctx_.api();
    const char* what = a_.name.c_str();
    if (a_.softmax())
        ctx_.run([&](lf_cuda_error* e) { return api.softmax_forward(ctx_.get(), dtype_, x, y, rows_, cols_, e); }, "softmax");
    else if (a_.from_output())
        ctx_.run([&](lf_cuda_error* e) { return api.activation_forward(ctx_.get(), dtype_, a_.act.kind, x, y, count(), e); }, what);
    else if (a_.from_input())
        ctx_.run([&](lf_cuda_error* e) { return api.act_forward(ctx_.get(), dtype_, &a_.act, x, y, count(), e); }, what);
    else if (x != y)
        ctx_.run([&](lf_cuda_error* e) { return api.copy_on_device(ctx_.get(), y, x, count() * elem(), e); }, "copy");
}

void CudaActivationKernel::backward(const float* x, const float* y, const float* dy, float* dx) const {
    const lf_cuda_api& api = ctx_.api();
    const char* what = a_.name.c_str();
    if (a_.softmax())
        ctx_.run([&](lf_cuda_error* e) { return api.softmax_backward(ctx_.get(), dtype_, y, dy, dx, rows_, cols_, e); },
                 "softmax backward");
    else if (a_.from_output())
        ctx_.run([&](lf_cuda_error* e) { return api.activation_backward(ctx_.get(), dtype_, a_.act.kind, y, dy, dx, count(), e); },
                 what);
    else if (a_.from_input())
        ctx_.run([&](lf_cuda_error* e) { return api.act_backward(ctx_.get(), dtype_, &a_.act, x, dy, dx, count(), e); }, what);
    else if (dx != dy)
        ctx_.run([&](lf_cuda_error* e) { return api.copy_on_device(ctx_.get(), dx, dy, count() * elem(), e); },
                 "copy");
}

std::size_t CudaPostActivation::workspace_floats(const CudaActivation& a, std::size_t count, bool training) {
    if (a.softmax()) return training ? 2 * count : count;
    return a.from_input() ? count : 0;
}

CudaPostActivation::CudaPostActivation(const CudaContext& ctx, CudaActivation a, std::int64_t rows, std::int64_t cols,
                                       float* out, float* out_grad, float* workspace, bool training, int dtype)
    : kernel_(ctx, std::move(a), rows, cols, dtype), out_(out), out_grad_(out_grad), pre_(out), pre_grad_(out_grad) {
    const CudaActivation& act = kernel_.activation();
    if (act.softmax() || act.from_input()) pre_ = workspace;
    if (act.softmax()) pre_grad_ = training ? workspace + kernel_.count() : nullptr;
}

void CudaPostActivation::forward() const { kernel_.forward(pre_, out_); }

const float* CudaPostActivation::backward() const {
    if (!(softmax() && fused_)) kernel_.backward(pre_, out_, out_grad_, pre_grad_);
    return pre_grad_;
}

}  // namespace lf
