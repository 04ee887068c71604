#include "backend/cpu/activation_kernel.h"

#include <cstring>

#include "layerforge/core/error.h"

namespace lf {

namespace {

struct EltwiseAlg {
    const char* name;
    dnnl::algorithm alg;
    float alpha;  // when the name fixes it
};

// Keras activation names -> oneDNN algorithms. "leaky_relu" takes the caller's alpha.
const EltwiseAlg kAlgs[] = {
    {"relu", dnnl::algorithm::eltwise_relu, 0.f},
    {"leaky_relu", dnnl::algorithm::eltwise_relu, -1.f},
    {"sigmoid", dnnl::algorithm::eltwise_logistic, 0.f},
    {"tanh", dnnl::algorithm::eltwise_tanh, 0.f},
    {"gelu", dnnl::algorithm::eltwise_gelu_erf, 0.f},
    {"gelu_tanh", dnnl::algorithm::eltwise_gelu_tanh, 0.f},
    {"elu", dnnl::algorithm::eltwise_elu, 1.f},
    {"swish", dnnl::algorithm::eltwise_swish, 1.f},
    {"silu", dnnl::algorithm::eltwise_swish, 1.f},
    {"exponential", dnnl::algorithm::eltwise_exp, 0.f},
};

}  // namespace

ActivationKernel::ActivationKernel(CpuContext& ctx, const std::string& name, double alpha, std::int64_t rows,
                                   std::int64_t cols, const float* src, float* dst, const float* diff_dst,
                                   float* diff_src, bool training)
    : ctx_(ctx), count_(std::size_t(rows * cols)), src_(src), dst_(dst), diff_dst_(diff_dst), diff_src_(diff_src) {
    using namespace dnnl;
    auto md = plain_md({rows, cols});
    auto prop = training ? prop_kind::forward_training : prop_kind::forward_inference;
    if (name == "linear") {
        identity_ = true;
        impl_ = "copy";
        return;
    }
    if (name == "softmax") {
        softmax_ = true;
        softmax_v2_forward::primitive_desc fpd(
            softmax_v2_forward::desc(prop, algorithm::softmax_accurate, md, md, 1), ctx.eng);
        fwd_ = softmax_v2_forward(fpd);
        fwd_args_ = {{DNNL_ARG_SRC, wrap(md, ctx, src)}, {DNNL_ARG_DST, wrap(md, ctx, dst)}};
        impl_ = fpd.impl_info_str();
        if (training && diff_src) {
            softmax_v2_backward::primitive_desc bpd(
                softmax_v2_backward::desc(algorithm::softmax_accurate, md, md, md, 1), ctx.eng, fpd);
            bwd_ = softmax_v2_backward(bpd);
            bwd_args_ = {{DNNL_ARG_DST, wrap(md, ctx, dst)},
                         {DNNL_ARG_DIFF_DST, wrap(md, ctx, diff_dst)},
                         {DNNL_ARG_DIFF_SRC, wrap(md, ctx, diff_src)}};
        }
        return;
    }
    const EltwiseAlg* a = nullptr;
    for (const EltwiseAlg& c : kAlgs)
        if (name == c.name) a = &c;
    if (!a) throw input_error("unknown activation '" + name + "'");
    float al = a->alpha < 0 ? float(alpha) : a->alpha;
    eltwise_forward::primitive_desc fpd(eltwise_forward::desc(prop, a->alg, md, al, 0.f), ctx.eng);
    fwd_ = eltwise_forward(fpd);
    fwd_args_ = {{DNNL_ARG_SRC, wrap(md, ctx, src)}, {DNNL_ARG_DST, wrap(md, ctx, dst)}};
    impl_ = fpd.impl_info_str();
    if (training && diff_src) {
        eltwise_backward::primitive_desc bpd(eltwise_backward::desc(a->alg, md, md, al, 0.f), ctx.eng, fpd);
        bwd_ = eltwise_backward(bpd);
        bwd_args_ = {{DNNL_ARG_SRC, wrap(md, ctx, src)},
                     {DNNL_ARG_DIFF_DST, wrap(md, ctx, diff_dst)},
                     {DNNL_ARG_DIFF_SRC, wrap(md, ctx, diff_src)}};
    }
}

void ActivationKernel::forward() {
    if (identity_) {
        if (dst_ != src_) std::memcpy(dst_, src_, count_ * sizeof(float));
        return;
    }
    run(fwd_, ctx_.strm, fwd_args_);
}

void ActivationKernel::backward() {
    if (!diff_src_) return;
    if (identity_) {
        if (diff_src_ != diff_dst_) std::memcpy(diff_src_, diff_dst_, count_ * sizeof(float));
        return;
    }
    run(bwd_, ctx_.strm, bwd_args_);
}

}  // namespace lf
