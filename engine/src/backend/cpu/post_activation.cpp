#include "backend/cpu/post_activation.h"

namespace lf {

namespace {

struct FusedActivation {
    const char* name;
    dnnl::algorithm fwd, bwd;
    float alpha;
};
const FusedActivation kFused[] = {
    {"relu", dnnl::algorithm::eltwise_relu, dnnl::algorithm::eltwise_relu_use_dst_for_bwd, 0.f},
    {"sigmoid", dnnl::algorithm::eltwise_logistic, dnnl::algorithm::eltwise_logistic_use_dst_for_bwd, 0.f},
    {"tanh", dnnl::algorithm::eltwise_tanh, dnnl::algorithm::eltwise_tanh_use_dst_for_bwd, 0.f},
    {"elu", dnnl::algorithm::eltwise_elu, dnnl::algorithm::eltwise_elu_use_dst_for_bwd, 1.f},
    {"exponential", dnnl::algorithm::eltwise_exp, dnnl::algorithm::eltwise_exp_use_dst_for_bwd, 0.f},
};

const FusedActivation* fused_activation(const std::string& name) {
    for (const FusedActivation& f : kFused)
        if (name == f.name) return &f;
    return nullptr;
}

}  // namespace

PostActivation::PostActivation(CpuContext& ctx, const std::string& name, std::int64_t rows, std::int64_t cols,
                               float* out, float* out_grad, bool training, DType dtype)
    : ctx_(ctx) {
    using namespace dnnl;
    const bool linear = name == "linear";
    const FusedActivation* fused = fused_activation(name);
    const std::size_t count = (std::size_t(rows * cols) * dtype_size(dtype) + 3) / sizeof(float);  // storage
    if (!linear && !fused) pre_.resize(count);
    if (!linear && training && out_grad) pre_grad_.resize(count);
    dst_ = linear || fused ? out : pre_.data();
    diff_dst_ = linear ? out_grad : pre_grad_.data();
    if (linear) return;
    if (!fused) {
        act_.emplace(ctx_, name, ActivationParams{}, rows, cols, dst_, out, out_grad, diff_dst_, training, dtype);
        impl_ = " + " + act_->impl_info();
        return;
    }
    fused_fwd_ = fused->fwd;
    alpha_ = fused->alpha;
    impl_ = std::string(" + post-op ") + fused->name;
    if (!training || !out_grad) return;
    auto md = plain_md({rows, cols}, dtype);
    eltwise_forward::primitive_desc hint(
        eltwise_forward::desc(prop_kind::forward_training, fused->bwd, md, fused->alpha, 0.f), ctx_.eng);
    eltwise_backward::primitive_desc bpd(eltwise_backward::desc(fused->bwd, md, md, fused->alpha, 0.f),
                                         Scratchpad::attr(), ctx_.eng, hint);
    bwd_ = eltwise_backward(bpd);
    bwd_args_ = {{DNNL_ARG_DST, wrap(md, ctx_, out)},
                 {DNNL_ARG_DIFF_DST, wrap(md, ctx_, out_grad)},
                 {DNNL_ARG_DIFF_SRC, wrap(md, ctx_, diff_dst_)}};
    ctx_.scratch.bind(bpd, ctx_.eng, bwd_args_);
    impl_ += std::string(" / ") + bpd.impl_info_str();
}

dnnl::primitive_attr PostActivation::attr() const {
    dnnl::primitive_attr attr = Scratchpad::attr();
    if (fused_fwd_ != dnnl::algorithm::undef) {
        dnnl::post_ops po;
        po.append_eltwise(1.f, fused_fwd_, alpha_, 0.f);
        attr.set_post_ops(po);
    }
    return attr;
}

void PostActivation::forward() {
    if (act_) act_->forward();
}

void PostActivation::backward() {
    if (bwd_) run(bwd_, ctx_.strm, bwd_args_);
    if (act_ && !fused_softmax_) act_->backward();
}

std::string PostActivation::impl_info() const { return impl_; }

std::optional<SoftmaxTail> PostActivation::softmax_tail() {
    if (!act_ || !act_->is_softmax()) return std::nullopt;
    return SoftmaxTail{pre_.data(), pre_grad_.empty() ? nullptr : pre_grad_.data()};
}

}  // namespace lf
