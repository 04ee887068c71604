#pragma once
// An activation function over a rows x cols buffer: oneDNN eltwise, or softmax over cols.
// Shared by the Activation-family layers and the `activation` parameter of Dense.
#include <unordered_map>

#include "backend/cpu/op.h"

namespace lf {

// The numbers a named activation may take. "leaky_relu" reads alpha (the slope below zero);
// "keras_relu" is Keras' ReLU layer: max_value if x >= max_value, x if threshold <= x, else
// alpha * (x - threshold), with max_value <= 0 meaning no cap.
struct ActivationParams {
    double alpha = 0, threshold = 0, max_value = 0;
};

class ActivationKernel {
public:
    // diff_dst / diff_src may be null (inference, or no gradient needed below). src == dst
    // (in place) is allowed for relu-like activations with a slope >= 0 only. The buffers hold
    // `dtype` values; the keras_relu loop runs on float32 only.
    ActivationKernel(CpuContext& ctx, const std::string& name, const ActivationParams& params, std::int64_t rows,
                     std::int64_t cols, const float* src, float* dst, const float* diff_dst, float* diff_src,
                     bool training, DType dtype = DType::Float32);
    void forward();
    void backward();  // writes diff_src when it is not null
    bool is_softmax() const { return softmax_; }
    bool is_identity() const { return identity_; }
    bool backward_reads_dst() const { return softmax_ || in_place_; }
    std::string impl_info() const { return impl_; }

private:
    CpuContext& ctx_;
    bool softmax_ = false, identity_ = false, loop_ = false;
    bool in_place_ = false;  // src == dst: a ReLU differentiated from its output
    float slope_ = 0, threshold_ = 0, max_value_ = 0;  // the loop_ ReLU (no oneDNN algorithm fits)
    std::size_t count_ = 0, bytes_ = 0;
    const float* src_;
    float* dst_;
    const float* diff_dst_;
    float* diff_src_;
    dnnl::primitive fwd_, bwd_;
    dnnl::primitive clip_fwd_, scale_bwd_;  // hard_sigmoid's second passes
    std::unordered_map<int, dnnl::memory> fwd_args_, bwd_args_, clip_fwd_args_, scale_bwd_args_;
    std::string impl_;

    bool setup_keras_relu(const ActivationParams& p);
    void setup_hard_sigmoid(const dnnl::memory::desc& md, bool training);
    void relu_loop_forward();
    void relu_loop_backward();
};

}  // namespace lf
