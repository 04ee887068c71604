#pragma once
// An activation function over a rows x cols buffer: oneDNN eltwise, or softmax over cols.
// Shared by the Activation-family layers and the `activation` parameter of Dense.
#include <unordered_map>

#include "backend/cpu/op.h"

namespace lf {

class ActivationKernel {
public:
    // diff_dst / diff_src may be null (inference, or no gradient needed below).
    ActivationKernel(CpuContext& ctx, const std::string& name, double alpha, std::int64_t rows,
                     std::int64_t cols, const float* src, float* dst, const float* diff_dst, float* diff_src,
                     bool training);
    void forward();
    void backward();  // writes diff_src when it is not null
    bool is_softmax() const { return softmax_; }
    bool is_identity() const { return identity_; }
    std::string impl_info() const { return impl_; }

private:
    CpuContext& ctx_;
    bool softmax_ = false, identity_ = false;
    std::size_t count_ = 0;
    const float* src_;
    float* dst_;
    const float* diff_dst_;
    float* diff_src_;
    dnnl::primitive fwd_, bwd_;
    std::unordered_map<int, dnnl::memory> fwd_args_, bwd_args_;
    std::string impl_;
};

}  // namespace lf
