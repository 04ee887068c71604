// Dense on oneDNN inner product. The kernel is stored as Keras stores it, (in, units) row-major,
// which is oneDNN's `io` weights layout, so checkpoints and exports need no transposition.
#include "backend/cpu/activation_kernel.h"
#include "backend/cpu/ops.h"
#include "layerforge/core/error.h"

namespace lf {

namespace {

// Activations whose derivative is a function of their output. Dense runs them as an eltwise
// post-op of the inner product (one pass, no pre-activation buffer) and differentiates them
// from the output with the *_use_dst_for_bwd algorithm. Others (gelu, swish, softmax) keep a
// separate ActivationKernel over a pre-activation buffer.
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

class DenseOp : public CpuOp {
public:
    explicit DenseOp(const OpSetup& s) : ctx_(s.ctx) {
        using namespace dnnl;
        using tag = memory::format_tag;
        const auto& p = s.node.params;
        std::int64_t n = s.batch, k = s.node.inputs[0].elements(), m = param_int(p, "units");
        bool bias = param_bool(p, "use_bias");
        const std::string& act = param_str(p, "activation");
        bool linear = act == "linear";
        const FusedActivation* fused = fused_activation(act);
        if (!linear && !fused) pre_.resize(std::size_t(n * m));
        if (!linear && s.training) pre_grad_.resize(std::size_t(n * m));
        float* ip_dst = linear || fused ? s.out : pre_.data();
        float* ip_diff_dst = linear ? s.out_grad : pre_grad_.data();

        auto src_md = plain_md({n, k}), dst_md = plain_md({n, m});
        memory::desc w_md({m, k}, memory::data_type::f32, tag::io);
        memory::desc b_md = bias ? plain_md({m}) : memory::desc();
        auto prop = s.training ? prop_kind::forward_training : prop_kind::forward_inference;
        auto fd = bias ? inner_product_forward::desc(prop, src_md, w_md, b_md, dst_md)
                       : inner_product_forward::desc(prop, src_md, w_md, dst_md);
        primitive_attr attr;
        if (fused) {
            post_ops po;
            po.append_eltwise(1.f, fused->fwd, fused->alpha, 0.f);
            attr.set_post_ops(po);
        }
        inner_product_forward::primitive_desc fpd(fd, attr, ctx_.eng);
        fwd_ = inner_product_forward(fpd);
        fwd_args_ = {{DNNL_ARG_SRC, wrap(src_md, ctx_, s.in[0])},
                     {DNNL_ARG_WEIGHTS, wrap(w_md, ctx_, s.w[0])},
                     {DNNL_ARG_DST, wrap(dst_md, ctx_, ip_dst)}};
        if (bias) fwd_args_[DNNL_ARG_BIAS] = wrap(b_md, ctx_, s.w[1]);
        impl_ = fpd.impl_info_str();

        if (fused) {
            impl_ += std::string(" + post-op ") + fused->name;
            if (s.training && s.out_grad) {
                eltwise_forward::primitive_desc hint(
                    eltwise_forward::desc(prop_kind::forward_training, fused->bwd, dst_md, fused->alpha, 0.f),
                    ctx_.eng);
                eltwise_backward::primitive_desc bpd(
                    eltwise_backward::desc(fused->bwd, dst_md, dst_md, fused->alpha, 0.f), ctx_.eng, hint);
                act_bwd_ = eltwise_backward(bpd);
                act_bwd_args_ = {{DNNL_ARG_DST, wrap(dst_md, ctx_, s.out)},
                                 {DNNL_ARG_DIFF_DST, wrap(dst_md, ctx_, s.out_grad)},
                                 {DNNL_ARG_DIFF_SRC, wrap(dst_md, ctx_, ip_diff_dst)}};
                impl_ += std::string(" / ") + bpd.impl_info_str();
            }
        } else {
            act_.emplace(ctx_, act, 0.0, n, m, ip_dst, s.out, s.out_grad, ip_diff_dst, s.training);
        }
        if (!s.training) return;

        if (s.in_grad[0]) {
            inner_product_backward_data::primitive_desc dpd(
                inner_product_backward_data::desc(src_md, w_md, dst_md), ctx_.eng, fpd);
            bwd_data_ = inner_product_backward_data(dpd);
            bwd_data_args_ = {{DNNL_ARG_DIFF_DST, wrap(dst_md, ctx_, ip_diff_dst)},
                              {DNNL_ARG_WEIGHTS, wrap(w_md, ctx_, s.w[0])},
                              {DNNL_ARG_DIFF_SRC, wrap(src_md, ctx_, s.in_grad[0])}};
            impl_ += std::string(" / ") + dpd.impl_info_str();
        }
        auto wd = bias ? inner_product_backward_weights::desc(src_md, w_md, b_md, dst_md)
                       : inner_product_backward_weights::desc(src_md, w_md, dst_md);
        inner_product_backward_weights::primitive_desc wpd(wd, ctx_.eng, fpd);
        bwd_weights_ = inner_product_backward_weights(wpd);
        bwd_weights_args_ = {{DNNL_ARG_SRC, wrap(src_md, ctx_, s.in[0])},
                             {DNNL_ARG_DIFF_DST, wrap(dst_md, ctx_, ip_diff_dst)},
                             {DNNL_ARG_DIFF_WEIGHTS, wrap(w_md, ctx_, s.w_grad[0])}};
        if (bias) bwd_weights_args_[DNNL_ARG_DIFF_BIAS] = wrap(b_md, ctx_, s.w_grad[1]);
        impl_ += std::string(" / ") + wpd.impl_info_str();
    }

    void forward() override {
        fwd_.execute(ctx_.strm, fwd_args_);
        if (act_ && !act_->is_identity()) act_->forward();
    }

    void backward() override {
        if (act_bwd_) act_bwd_.execute(ctx_.strm, act_bwd_args_);
        if (act_ && !act_->is_identity() && !fused_softmax_) act_->backward();
        bwd_weights_.execute(ctx_.strm, bwd_weights_args_);
        if (bwd_data_) bwd_data_.execute(ctx_.strm, bwd_data_args_);
    }

    std::string impl_info() const override { return act_ ? impl_ + " + " + act_->impl_info() : impl_; }

    std::optional<SoftmaxTail> softmax_tail() override {
        if (!act_ || !act_->is_softmax()) return std::nullopt;
        return SoftmaxTail{pre_.data(), pre_grad_.empty() ? nullptr : pre_grad_.data()};
    }
    void fuse_softmax_into_loss(bool on) override { fused_softmax_ = on; }

private:
    CpuContext& ctx_;
    std::vector<float> pre_, pre_grad_;  // pre-activation values (unfused only) and their gradient
    std::optional<ActivationKernel> act_;  // unfused activations only
    dnnl::primitive fwd_, bwd_data_, bwd_weights_, act_bwd_;  // act_bwd_: fused activation's backward
    std::unordered_map<int, dnnl::memory> fwd_args_, bwd_data_args_, bwd_weights_args_, act_bwd_args_;
    std::string impl_;
    bool fused_softmax_ = false;
};

}  // namespace

std::unique_ptr<CpuOp> make_dense_op(const OpSetup& s) { return std::make_unique<DenseOp>(s); }

}  // namespace lf
