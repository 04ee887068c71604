// Conv2D, DepthwiseConv2D (a grouped convolution, one group per input channel) and
// Conv2DTranspose (a deconvolution) on oneDNN. Activations stay plain NHWC, which oneDNN's
// brgemm kernels read directly on AVX-512; weights are declared `any` so each primitive picks
// its blocked layout, and the Keras-layout kernel is reordered into it once per step, by the
// plan's optimizer update when the plan trains (LayoutCopy; the backward-data primitive reuses
// the forward's copy when the layouts agree). The bias and a
// relu-like activation are fused into the forward primitive (see PostActivation). In inference
// plans a BatchNormalization after the convolution may be folded into its kernel and bias.
#include <cmath>

#include "backend/cpu/layout_copy.h"
#include "backend/cpu/ops.h"
#include "backend/cpu/post_activation.h"
#include "layerforge/graph/batch_norm_fold.h"
#include "layers/window.h"

namespace lf {

namespace {

using dnnl::memory;

enum class ConvKind { Conv, Depthwise, Transpose };

ConvKind kind_of(const std::string& type) {
    if (type == "DepthwiseConv2D") return ConvKind::Depthwise;
    return type == "Conv2DTranspose" ? ConvKind::Transpose : ConvKind::Conv;
}

memory::desc nhwc(std::int64_t n, std::int64_t h, std::int64_t w, std::int64_t c, DType t) {
    return memory::desc({n, c, h, w}, dnnl_type(t), memory::format_tag::nhwc);
}

memory::desc any_md(const memory::dims& d, DType t) { return memory::desc(d, dnnl_type(t), memory::format_tag::any); }

// oneDNN dims of the weights and the strides that describe the Keras kernel in place.
struct KernelLayout {
    memory::dims dims, strides;
};

KernelLayout kernel_layout(ConvKind k, std::int64_t kh, std::int64_t kw, std::int64_t in_c, std::int64_t out_c) {
    switch (k) {
    case ConvKind::Conv:  // (kh, kw, in, out) as oihw
        return {{out_c, in_c, kh, kw}, {1, out_c, kw * in_c * out_c, in_c * out_c}};
    case ConvKind::Depthwise: {  // (kh, kw, in, m) as goihw with g = in, o = m, i = 1
        const std::int64_t m = out_c / in_c;
        return {{in_c, m, 1, kh, kw}, {m, 1, kh * kw * in_c * m, kw * in_c * m, in_c * m}};
    }
    case ConvKind::Transpose:  // (kh, kw, out, in) as oihw
        return {{out_c, in_c, kh, kw}, {in_c, 1, kw * out_c * in_c, out_c * in_c}};
    }
    return {};
}

// y = gamma * (conv(x, W) + b - mean) / sqrt(var + eps) + beta is conv(x, W * s) + shift with
// graph/batch_norm_fold.h's scale s and shift per output channel. Recomputed before every forward
// from the live weights: an inference plan built during training sees each epoch's weights.
class FoldedKernel {
public:
    FoldedKernel(const OpSetup::FoldedNorm& norm, const float* kernel, const float* bias, std::size_t kernel_size,
                 std::int64_t channels)
        : norm_(norm), kernel_(kernel), bias_(bias), folded_kernel_(kernel_size), folded_bias_(std::size_t(channels)),
          scale_(std::size_t(channels)) {}

    float* kernel() { return folded_kernel_.data(); }
    float* bias() { return folded_bias_.data(); }
    std::size_t bytes() const { return (folded_kernel_.size() + 2 * folded_bias_.size()) * sizeof(float); }

    // Both kernel layouts folded here, Keras' (kh, kw, in, out) and the depthwise (kh, kw, in, m),
    // have the output channel as the fastest index: element i belongs to channel i % channels.
    void refold() {
        const std::size_t c = folded_bias_.size();
        for (std::size_t o = 0; o < c; ++o) {
            scale_[o] = norm_fold_scale(norm_.gamma[o], norm_.moving_variance[o], norm_.epsilon);
            folded_bias_[o] = norm_fold_shift(bias_ ? bias_[o] : 0.f, norm_.moving_mean[o], norm_.beta[o], scale_[o]);
        }
        for (std::size_t i = 0; i < folded_kernel_.size(); i += c)
            for (std::size_t o = 0; o < c; ++o) folded_kernel_[i + o] = kernel_[i + o] * scale_[o];
    }

private:
    OpSetup::FoldedNorm norm_;
    const float *kernel_, *bias_;
    std::vector<float> folded_kernel_, folded_bias_, scale_;
};

std::string activation_of(const OpSetup& s) {
    if (s.folded_norm) return s.folded_norm->relu ? "relu" : "linear";  // the convolution's own is linear
    return s.relu_moved_out ? "linear" : param_str(s.node.params, "activation");
}

class ConvOp : public CpuOp {
public:
    explicit ConvOp(const OpSetup& s)
        : ctx_(s.ctx), kind_(kind_of(s.node.spec->type)),
          act_(s.ctx, activation_of(s), s.batch * s.node.layer.output[0] * s.node.layer.output[1],
               s.node.layer.output[2], s.out, s.out_grad, s.training, s.dtype),
          dtype_(s.dtype) {
        const Params& p = s.node.params;
        const Shape &in = s.node.inputs[0], &out = s.node.layer.output;
        Window2D w = kind_ == ConvKind::Transpose
                         ? transposed_window(in, p)
                         : conv_window(in, param_list(p, "kernel_size"), param_list(p, "strides"),
                                       param_list(p, "dilation_rate"), param_str(p, "padding"), s.node.spec->type);
        const bool bias = param_bool(p, "use_bias");
        KernelLayout kl = kernel_layout(kind_, w.kernel[0], w.kernel[1], in[2], out[2]);
        user_w_md_ = memory::desc(kl.dims, memory::data_type::f32, kl.strides);
        src_md_ = nhwc(s.batch, in[0], in[1], in[2], s.dtype);
        dst_md_ = nhwc(s.batch, out[0], out[1], out[2], s.dtype);
        b_md_ = bias || s.folded_norm ? plain_md({out[2]}) : memory::desc();
        if (s.folded_norm) {
            fold_.emplace(*s.folded_norm, s.w[0], bias ? s.w[1] : nullptr, user_w_md_.get_size() / sizeof(float),
                          out[2]);
            workspace_bytes_ += fold_->bytes();
        }
        geo_ = {{w.stride[0], w.stride[1]},
                {w.dilation[0] - 1, w.dilation[1] - 1},
                {w.pad_l[0], w.pad_l[1]},
                {w.pad_r[0], w.pad_r[1]}};
        kernel_dims_ = kl.dims;
        if (kind_ == ConvKind::Transpose)
            build<dnnl::deconvolution_forward, dnnl::deconvolution_backward_data,
                  dnnl::deconvolution_backward_weights>(s, dnnl::algorithm::deconvolution_direct);
        else
            build<dnnl::convolution_forward, dnnl::convolution_backward_data,
                  dnnl::convolution_backward_weights>(s, dnnl::algorithm::convolution_direct);
    }

    void forward() override {
        if (fold_) fold_->refold();
        fwd_w_.convert(ctx_);
        run(fwd_, ctx_.strm, fwd_args_);
        act_.forward();
    }

    void backward() override {
        act_.backward();
        if (bwd_weights_) run(bwd_weights_, ctx_.strm, bwd_weights_args_);
        w_grad_.convert(ctx_);
        if (!bwd_data_) return;
        bwd_w_.convert(ctx_);
        run(bwd_data_, ctx_.strm, bwd_data_args_);
    }

    std::string impl_info() const override {
        return impl_ + (fold_ ? " + folded BatchNormalization" : "") + act_.impl_info();
    }
    std::optional<SoftmaxTail> softmax_tail() override { return act_.softmax_tail(); }
    void fuse_softmax_into_loss(bool on) override { act_.fuse_softmax_into_loss(on); }
    std::size_t workspace_bytes() const override {
        return workspace_bytes_ + fwd_w_.bytes() + bwd_w_.bytes() + w_grad_.bytes() + act_.workspace_bytes();
    }
    bool backward_reads_output() const override { return act_.reads_output(); }

private:
    struct Geometry {
        memory::dims strides, dilates, pad_l, pad_r;
    };

    template <class Fwd, class BwdData, class BwdWeights>
    void build(const OpSetup& s, dnnl::algorithm alg) {
        using namespace dnnl;
        const bool bias = b_md_ != memory::desc();
        const auto& g = geo_;
        auto w_any = any_md(kernel_dims_, dtype_);  // bf16: the master kernel is rounded by the reorder
        auto prop = s.training ? prop_kind::forward_training : prop_kind::forward_inference;
        auto fd = bias ? typename Fwd::desc(prop, alg, src_md_, w_any, b_md_, dst_md_, g.strides, g.dilates, g.pad_l,
                                            g.pad_r)
                       : typename Fwd::desc(prop, alg, src_md_, w_any, dst_md_, g.strides, g.dilates, g.pad_l, g.pad_r);
        typename Fwd::primitive_desc fpd(fd, act_.attr(), ctx_.eng);
        fwd_ = Fwd(fpd);
        user_w_ = wrap(user_w_md_, ctx_, fold_ ? fold_->kernel() : s.w[0]);
        fwd_args_ = {{DNNL_ARG_SRC, wrap(src_md_, ctx_, s.in[0])},
                     {DNNL_ARG_WEIGHTS, fwd_w_.bind(fpd.weights_desc(), user_w_, ctx_, user_w_direction())},
                     {DNNL_ARG_DST, wrap(dst_md_, ctx_, act_.primitive_dst())}};
        if (bias) fwd_args_[DNNL_ARG_BIAS] = wrap(b_md_, ctx_, fold_ ? fold_->bias() : s.w[1]);
        ctx_.scratch.bind(fpd, ctx_.eng, fwd_args_);
        impl_ = fpd.impl_info_str();
        if (!s.training) return;

        auto diff_dst = wrap(dst_md_, ctx_, act_.primitive_diff_dst());
        if (!s.frozen) build_backward_weights<BwdWeights>(s, alg, fpd, diff_dst);
        if (!s.in_grad[0]) return;
        // Weights as `any` (the forward's desc would select a reference kernel).
        typename BwdData::primitive_desc dpd(
            typename BwdData::desc(alg, src_md_, w_any, dst_md_, g.strides, g.dilates, g.pad_l, g.pad_r),
            Scratchpad::attr(), ctx_.eng, fpd);
        bwd_data_ = BwdData(dpd);
        // The forward pass reordered the weights this step already when the layouts agree.
        const memory bwd_w = dpd.weights_desc() == fwd_w_.memory().get_desc() ? fwd_w_.memory()
                                                                              : bwd_w_.bind(dpd.weights_desc(), user_w_, ctx_, user_w_direction());
        bwd_data_args_ = {{DNNL_ARG_DIFF_DST, diff_dst},
                          {DNNL_ARG_WEIGHTS, bwd_w},
                          {DNNL_ARG_DIFF_SRC, wrap(src_md_, ctx_, s.in_grad[0])}};
        ctx_.scratch.bind(dpd, ctx_.eng, bwd_data_args_);
        impl_ += std::string(" / ") + dpd.impl_info_str();
    }

    // A folded kernel is the op's own; the plain one is the model's weights.
    LayoutCopy::Direction user_w_direction() const {
        return fold_ ? LayoutCopy::Direction::FromUser : LayoutCopy::Direction::FromWeights;
    }

    template <class BwdWeights, class FwdPd>
    void build_backward_weights(const OpSetup& s, dnnl::algorithm alg, const FwdPd& fpd, const memory& diff_dst) {
        const bool bias = b_md_ != memory::desc();
        const auto& g = geo_;
        auto w_any = any_md(kernel_dims_, DType::Float32);  // weight gradients stay float32
        auto wd = bias ? typename BwdWeights::desc(alg, src_md_, w_any, b_md_, dst_md_, g.strides, g.dilates, g.pad_l,
                                                   g.pad_r)
                       : typename BwdWeights::desc(alg, src_md_, w_any, dst_md_, g.strides, g.dilates, g.pad_l, g.pad_r);
        typename BwdWeights::primitive_desc wpd(wd, Scratchpad::attr(), ctx_.eng, fpd);
        bwd_weights_ = BwdWeights(wpd);
        const memory user_w_grad = wrap(user_w_md_, ctx_, s.w_grad[0]);
        bwd_weights_args_ = {{DNNL_ARG_SRC, wrap(src_md_, ctx_, s.in[0])},
                             {DNNL_ARG_DIFF_DST, diff_dst},
                             {DNNL_ARG_DIFF_WEIGHTS,
                              w_grad_.bind(wpd.diff_weights_desc(), user_w_grad, ctx_, LayoutCopy::Direction::IntoUser)}};
        if (bias) bwd_weights_args_[DNNL_ARG_DIFF_BIAS] = wrap(b_md_, ctx_, s.w_grad[1]);
        ctx_.scratch.bind(wpd, ctx_.eng, bwd_weights_args_);
        impl_ += std::string(" / ") + wpd.impl_info_str();
    }

    CpuContext& ctx_;
    ConvKind kind_;
    PostActivation act_;
    DType dtype_;
    std::optional<FoldedKernel> fold_;
    memory::desc user_w_md_, src_md_, dst_md_, b_md_;
    memory::dims kernel_dims_;
    Geometry geo_;
    dnnl::primitive fwd_, bwd_data_, bwd_weights_;
    memory user_w_;
    LayoutCopy fwd_w_, bwd_w_, w_grad_;  // the kernel as each primitive reads it, its gradient as written
    std::unordered_map<int, memory> fwd_args_, bwd_data_args_, bwd_weights_args_;
    std::string impl_;
    std::size_t workspace_bytes_ = 0;
};

}  // namespace

std::unique_ptr<CpuOp> make_conv_op(const OpSetup& s) { return std::make_unique<ConvOp>(s); }

}  // namespace lf
