#pragma once
// Activation functions on the CUDA backend: which kernel a Keras activation name or an
// Activation-family layer maps to, and the helper that applies one over rows x cols, either as
// a layer of its own or after a Dense or convolution.
#include <cstdint>
#include <optional>
#include <string>

#include "backend/cuda/cuda_context.h"
#include "layerforge/graph/model.h"

namespace lf {

// A resolved activation: "linear", "softmax", or a module kernel (LF_CUDA_RELU ... ).
struct CudaActivation {
    std::string name;
    lf_cuda_act act{-1, 0, 0, 0};
    bool identity() const { return name == "linear"; }
    bool softmax() const { return name == "softmax"; }
    // relu, sigmoid and tanh are differentiated from their output, the others from their input.
    bool from_output() const { return act.kind >= LF_CUDA_RELU && act.kind <= LF_CUDA_TANH; }
    bool from_input() const { return act.kind >= LF_CUDA_LEAKY_RELU; }
};

// The `activation` parameter of Dense and the convolutions; nullopt for a name without a kernel.
std::optional<CudaActivation> cuda_activation(const std::string& name);
// An Activation-family layer (Activation, ReLU, LeakyReLU, Sigmoid, Tanh, GELU, Softmax).
std::optional<CudaActivation> cuda_layer_activation(const NodeInfo& node);

// f over rows x cols. Softmax normalises each row (cuDNN); the rest are element-wise.
class CudaActivationKernel {
public:
    // `dtype`: the lf_cuda_dtype x, y and their gradients are stored in.
    CudaActivationKernel(const CudaContext& ctx, CudaActivation a, std::int64_t rows, std::int64_t cols, int dtype);
    void forward(const float* x, float* y) const;
    // dx from dy and x (the input) or y (the output), whichever the function needs; dx may be dy.
    void backward(const float* x, const float* y, const float* dy, float* dx) const;
    const CudaActivation& activation() const { return a_; }
    std::size_t count() const { return std::size_t(rows_ * cols_); }
    std::size_t elem() const { return lf_cuda_dtype_bytes(dtype_); }

private:
    const CudaContext& ctx_;
    CudaActivation a_;
    std::int64_t rows_, cols_;
    int dtype_;
};

// The activation after a Dense or convolution writing rows x cols: the primitive writes pre(),
// forward() turns it into the output, backward() turns the output's gradient into pre()'s and
// returns where it is. The pre-activation lives in the op's workspace when the function needs
// it after the forward pass (softmax logits, derivatives from the input); otherwise the
// activation runs in place on the output and its gradient.
class CudaPostActivation {
public:
    // workspace: workspace_floats() floats.
    CudaPostActivation(const CudaContext& ctx, CudaActivation a, std::int64_t rows, std::int64_t cols, float* out,
                       float* out_grad, float* workspace, bool training, int dtype);
    static std::size_t workspace_floats(const CudaActivation& a, std::size_t count, bool training);

    float* pre() const { return pre_; }
    void forward() const;
    const float* backward() const;
    std::string name() const { return kernel_.activation().name; }
    bool softmax() const { return kernel_.activation().softmax(); }
    const float* logits() const { return pre_; }
    float* logits_grad() const { return pre_grad_; }
    void fuse_softmax_into_loss(bool on) { fused_ = on; }

private:
    CudaActivationKernel kernel_;
    float* out_;
    float* out_grad_;
    float* pre_;
    float* pre_grad_;  // softmax: the logits' gradient; else out_grad_
    bool fused_ = false;
};

}  // namespace lf
