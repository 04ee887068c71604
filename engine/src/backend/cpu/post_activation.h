#pragma once
// The `activation` parameter of Dense and the convolutions, applied to a primitive's output.
// Activations whose derivative is a function of their output (relu, sigmoid, tanh, elu,
// exponential) run as an eltwise post-op of the primitive itself: one pass, no pre-activation
// buffer, differentiated from the output with the *_use_dst_for_bwd algorithm. The others
// (gelu, swish, softmax) keep a separate ActivationKernel over a pre-activation buffer.
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/cpu/activation_kernel.h"

namespace lf {

class PostActivation {
public:
    // The primitive's output is rows x cols (channels last: cols = channels); out/out_grad are
    // the layer's output and its gradient (null in inference plans), both of `dtype`.
    PostActivation(CpuContext& ctx, const std::string& name, std::int64_t rows, std::int64_t cols, float* out,
                   float* out_grad, bool training, DType dtype = DType::Float32);
    PostActivation(const PostActivation&) = delete;
    PostActivation& operator=(const PostActivation&) = delete;

    dnnl::primitive_attr attr() const;        // the fused post-op, if any; user scratchpad
    float* primitive_dst() const { return dst_; }          // where the primitive writes
    float* primitive_diff_dst() const { return diff_dst_; }  // what its backward reads
    void forward();   // after the primitive
    void backward();  // before the primitive's backward
    std::string impl_info() const;
    std::size_t workspace_bytes() const { return (pre_.size() + pre_grad_.size()) * sizeof(float); }

    std::optional<SoftmaxTail> softmax_tail();
    // Whether backward() reads the layer's output (a fused activation differentiated from it, or softmax).
    bool reads_output() const { return bool(bwd_) || (act_ && act_->backward_reads_dst()); }
    void fuse_softmax_into_loss(bool on) { fused_softmax_ = on; }

private:
    CpuContext& ctx_;
    dnnl::algorithm fused_fwd_ = dnnl::algorithm::undef;
    float alpha_ = 0.f;
    std::vector<float> pre_, pre_grad_;    // pre-activation values (unfused only) and their gradient, as storage
    float* dst_ = nullptr;
    float* diff_dst_ = nullptr;
    std::optional<ActivationKernel> act_;  // unfused activations only
    dnnl::primitive bwd_;                   // fused activation's backward
    std::unordered_map<int, dnnl::memory> bwd_args_;
    std::string impl_;
    bool fused_softmax_ = false;
};

}  // namespace lf
