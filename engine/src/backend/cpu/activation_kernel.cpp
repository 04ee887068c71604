#include "backend/cpu/activation_kernel.h"

#include <cstring>
#include <limits>

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
    {"hard_swish", dnnl::algorithm::eltwise_hardswish, 0.f},
    {"hard_silu", dnnl::algorithm::eltwise_hardswish, 0.f},
};

}  // namespace

ActivationKernel::ActivationKernel(CpuContext& ctx, const std::string& name, const ActivationParams& params, std::int64_t rows,
                                   std::int64_t cols, const float* src, float* dst, const float* diff_dst,
                                   float* diff_src, bool training, DType dtype)
    : ctx_(ctx), count_(std::size_t(rows * cols)), bytes_(count_ * dtype_size(dtype)), src_(src), dst_(dst),
      diff_dst_(diff_dst), diff_src_(diff_src) {
    using namespace dnnl;
    auto md = plain_md({rows, cols}, dtype);
    auto prop = training ? prop_kind::forward_training : prop_kind::forward_inference;
    if (name == "linear") {
        identity_ = true;
        impl_ = "copy";
        return;
    }
    if (name == "softmax") {
        softmax_ = true;
        const auto attr = Scratchpad::attr();
        softmax_v2_forward::primitive_desc fpd(
            softmax_v2_forward::desc(prop, algorithm::softmax_accurate, md, md, 1), attr, ctx.eng);
        fwd_ = softmax_v2_forward(fpd);
        fwd_args_ = {{DNNL_ARG_SRC, wrap(md, ctx, src)}, {DNNL_ARG_DST, wrap(md, ctx, dst)}};
        ctx.scratch.bind(fpd, ctx.eng, fwd_args_);
        impl_ = fpd.impl_info_str();
        if (training && diff_src) {
            softmax_v2_backward::primitive_desc bpd(
                softmax_v2_backward::desc(algorithm::softmax_accurate, md, md, md, 1), attr, ctx.eng, fpd);
            bwd_ = softmax_v2_backward(bpd);
            bwd_args_ = {{DNNL_ARG_DST, wrap(md, ctx, dst)},
                         {DNNL_ARG_DIFF_DST, wrap(md, ctx, diff_dst)},
                         {DNNL_ARG_DIFF_SRC, wrap(md, ctx, diff_src)}};
            ctx.scratch.bind(bpd, ctx.eng, bwd_args_);
        }
        return;
    }
    if (name == "hard_sigmoid") {
        setup_hard_sigmoid(md, training);
        return;
    }
    if (name == "keras_relu" && setup_keras_relu(params)) {
        if (dtype != DType::Float32) throw runtime_error("the keras_relu loop runs on float32 buffers only");
        return;
    }
    float al = 0, beta = 0;
    dnnl::algorithm alg = dnnl::algorithm::eltwise_relu;
    if (name == "keras_relu") {
        // Only the oneDNN-expressible forms reach here: leaky ReLU, or a plain ReLU capped at max_value.
        if (params.max_value > 0) alg = algorithm::eltwise_clip_v2, beta = float(params.max_value);
        else al = float(params.alpha);
    } else {
        const EltwiseAlg* a = nullptr;
        for (const EltwiseAlg& c : kAlgs)
            if (name == c.name) a = &c;
        if (!a) throw input_error("unknown activation '" + name + "'");
        alg = a->alg;
        al = a->alpha < 0 ? float(params.alpha) : a->alpha;
    }
    if (src == dst) {  // in place: the input is gone after forward, so differentiate from the output
        if (alg != algorithm::eltwise_relu || al < 0) throw runtime_error("activation '" + name + "' cannot run in place");
        in_place_ = true;
        alg = algorithm::eltwise_relu_use_dst_for_bwd;
    }
    const auto attr = Scratchpad::attr();
    eltwise_forward::primitive_desc fpd(eltwise_forward::desc(prop, alg, md, al, beta), attr, ctx.eng);
    fwd_ = eltwise_forward(fpd);
    fwd_args_ = {{DNNL_ARG_SRC, wrap(md, ctx, src)}, {DNNL_ARG_DST, wrap(md, ctx, dst)}};
    ctx.scratch.bind(fpd, ctx.eng, fwd_args_);
    impl_ = fpd.impl_info_str() + std::string(in_place_ ? " in place" : "");
    if (training && diff_src) {
        eltwise_backward::primitive_desc bpd(eltwise_backward::desc(alg, md, md, al, beta), attr, ctx.eng, fpd);
        bwd_ = eltwise_backward(bpd);
        bwd_args_ = {{in_place_ ? DNNL_ARG_DST : DNNL_ARG_SRC, wrap(md, ctx, src)},
                     {DNNL_ARG_DIFF_DST, wrap(md, ctx, diff_dst)},
                     {DNNL_ARG_DIFF_SRC, wrap(md, ctx, diff_src)}};
        ctx.scratch.bind(bpd, ctx.eng, bwd_args_);
    }
}

// relu6(x + 3) / 6 has no oneDNN 2.6 algorithm: linear(x / 6 + 1/2), then clipped to [0, 1] in
// place. Its derivative, 1/6 where -3 < x <= 3, from the input as every non-ReLU activation's:
// clip_v2's over (-3, 3], then linear's scale, in place on diff_src.
void ActivationKernel::setup_hard_sigmoid(const dnnl::memory::desc& md, bool training) {
    using namespace dnnl;
    if (src_ == dst_) throw runtime_error("activation 'hard_sigmoid' cannot run in place");
    const auto attr = Scratchpad::attr();
    const auto prop = training ? prop_kind::forward_training : prop_kind::forward_inference;
    constexpr float kSlope = 1.f / 6.f, kShift = 0.5f, kKink = 3.f;
    eltwise_forward::primitive_desc lpd(eltwise_forward::desc(prop, algorithm::eltwise_linear, md, kSlope, kShift), attr, ctx_.eng);
    eltwise_forward::primitive_desc cpd(eltwise_forward::desc(prop, algorithm::eltwise_clip_v2, md, 0.f, 1.f), attr, ctx_.eng);
    fwd_ = eltwise_forward(lpd);
    clip_fwd_ = eltwise_forward(cpd);
    fwd_args_ = {{DNNL_ARG_SRC, wrap(md, ctx_, src_)}, {DNNL_ARG_DST, wrap(md, ctx_, dst_)}};
    clip_fwd_args_ = {{DNNL_ARG_SRC, wrap(md, ctx_, dst_)}, {DNNL_ARG_DST, wrap(md, ctx_, dst_)}};
    ctx_.scratch.bind(lpd, ctx_.eng, fwd_args_);
    ctx_.scratch.bind(cpd, ctx_.eng, clip_fwd_args_);
    impl_ = std::string(lpd.impl_info_str()) + " + " + cpd.impl_info_str();
    if (!training || !diff_src_) return;
    eltwise_forward::primitive_desc window(eltwise_forward::desc(prop, algorithm::eltwise_clip_v2, md, -kKink, kKink), attr,
                                           ctx_.eng);  // the hint of the window's backward, never run
    eltwise_backward::primitive_desc cbd(eltwise_backward::desc(algorithm::eltwise_clip_v2, md, md, -kKink, kKink), attr,
                                         ctx_.eng, window);
    eltwise_backward::primitive_desc lbd(eltwise_backward::desc(algorithm::eltwise_linear, md, md, kSlope, kShift), attr,
                                         ctx_.eng, lpd);
    bwd_ = eltwise_backward(cbd);
    scale_bwd_ = eltwise_backward(lbd);
    bwd_args_ = {{DNNL_ARG_SRC, wrap(md, ctx_, src_)},
                 {DNNL_ARG_DIFF_DST, wrap(md, ctx_, diff_dst_)},
                 {DNNL_ARG_DIFF_SRC, wrap(md, ctx_, diff_src_)}};
    scale_bwd_args_ = {{DNNL_ARG_SRC, wrap(md, ctx_, src_)},
                       {DNNL_ARG_DIFF_DST, wrap(md, ctx_, diff_src_)},
                       {DNNL_ARG_DIFF_SRC, wrap(md, ctx_, diff_src_)}};
    ctx_.scratch.bind(cbd, ctx_.eng, bwd_args_);
    ctx_.scratch.bind(lbd, ctx_.eng, scale_bwd_args_);
}

// Keras' ReLU with a threshold, or with a cap and a slope together, has no oneDNN algorithm:
// it runs as a plain loop. Returns false when oneDNN's relu or clip_v2 expresses it.
bool ActivationKernel::setup_keras_relu(const ActivationParams& p) {
    if (p.threshold == 0 && (p.max_value <= 0 || p.alpha == 0)) return false;
    loop_ = true;
    slope_ = float(p.alpha);
    threshold_ = float(p.threshold);
    max_value_ = p.max_value > 0 ? float(p.max_value) : std::numeric_limits<float>::infinity();
    impl_ = "loop:keras_relu";
    return true;
}

void ActivationKernel::relu_loop_forward() {
    for (std::size_t i = 0; i < count_; ++i) {
        const float x = src_[i];
        dst_[i] = x >= max_value_ ? max_value_ : x >= threshold_ ? x : slope_ * (x - threshold_);
    }
}

void ActivationKernel::relu_loop_backward() {
    for (std::size_t i = 0; i < count_; ++i) {
        const float x = src_[i];
        diff_src_[i] = x >= max_value_ ? 0.f : x >= threshold_ ? diff_dst_[i] : slope_ * diff_dst_[i];
    }
}

void ActivationKernel::forward() {
    if (identity_) {
        if (dst_ != src_) std::memcpy(dst_, src_, bytes_);
        return;
    }
    if (loop_) return relu_loop_forward();
    run(fwd_, ctx_.strm, fwd_args_);
    if (clip_fwd_) run(clip_fwd_, ctx_.strm, clip_fwd_args_);
}

void ActivationKernel::backward() {
    if (!diff_src_) return;
    if (identity_) {
        if (diff_src_ != diff_dst_) std::memcpy(diff_src_, diff_dst_, bytes_);
        return;
    }
    if (loop_) return relu_loop_backward();
    run(bwd_, ctx_.strm, bwd_args_);
    if (scale_bwd_) run(scale_bwd_, ctx_.strm, scale_bwd_args_);
}

}  // namespace lf
