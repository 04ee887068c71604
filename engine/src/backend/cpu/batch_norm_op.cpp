// BatchNormalization on oneDNN batch normalization over the channel (last) axis.
// Training: batch statistics, then the moving averages are updated in place; inference: the
// moving statistics as global stats. A frozen layer (trainable: false) normalises with its moving
// statistics in training plans too and never updates them, as Keras does; its backward, when a
// layer below still trains, is the data gradient alone.
#include <cstring>

#include "backend/cpu/ops.h"

namespace lf {

namespace {

using dnnl::memory;

// Channels last as oneDNN sees it: images as nhwc and vectors as nc, which its jit kernels
// handle (a 3-D nwc view falls back to the reference kernel); other ranks as (batch, rest, C).
memory::desc data_desc(std::int64_t batch, const Shape& in, DType type) {
    const std::int64_t c = in.dims.back();
    const auto t = dnnl_type(type);
    if (in.rank() == 3) return memory::desc({batch, c, in[0], in[1]}, t, memory::format_tag::nhwc);
    if (in.rank() == 1) return memory::desc({batch, c}, t, memory::format_tag::nc);
    return memory::desc({batch, c, in.elements() / c}, t, memory::format_tag::nwc);
}

class BatchNormOp : public CpuOp {
public:
    explicit BatchNormOp(const OpSetup& s)
        : ctx_(s.ctx), training_(s.training && !s.frozen), momentum_(float(param_float(s.node.params, "momentum"))),
          channels_(s.node.layer.output.dims.back()), moving_mean_(s.w[2]), moving_var_(s.w[3]) {
        using namespace dnnl;
        using flags = normalization_flags;
        const std::int64_t c = channels_, spatial = s.node.inputs[0].elements() / c;
        samples_ = s.batch * spatial;
        const float eps = float(param_float(s.node.params, "epsilon"));
        auto data_md = data_desc(s.batch, s.node.inputs[0], s.dtype);  // statistics, scale and shift: float32
        auto c_md = plain_md({c});
        auto fl = flags::use_scale | flags::use_shift;
        // The ReLU after it, in the same pass; backward masks the gradient with the workspace.
        if (s.fuse_relu) fl = fl | flags::fuse_norm_relu;
        if (training_) {
            mean_.resize(std::size_t(c));
            var_.resize(std::size_t(c));
        } else {
            fl = fl | flags::use_global_stats;
        }
        const bool backprop = s.training && s.out_grad;  // a frozen one still passes the gradient down
        auto prop = backprop ? prop_kind::forward_training : prop_kind::forward_inference;
        const auto attr = Scratchpad::attr();
        batch_normalization_forward::primitive_desc fpd(batch_normalization_forward::desc(prop, data_md, eps, fl),
                                                        attr, ctx_.eng);
        fwd_ = batch_normalization_forward(fpd);
        auto mean = wrap(c_md, ctx_, training_ ? mean_.data() : moving_mean_);
        auto var = wrap(c_md, ctx_, training_ ? var_.data() : moving_var_);
        fwd_args_ = {{DNNL_ARG_SRC, wrap(data_md, ctx_, s.in[0])}, {DNNL_ARG_DST, wrap(data_md, ctx_, s.out)},
                     {DNNL_ARG_SCALE, wrap(c_md, ctx_, s.w[0])}, {DNNL_ARG_SHIFT, wrap(c_md, ctx_, s.w[1])},
                     {DNNL_ARG_MEAN, mean},
                     {DNNL_ARG_VARIANCE, var}};
        if (s.fuse_relu && backprop) {
            workspace_ = memory(fpd.workspace_desc(), ctx_.eng);
            fwd_args_[DNNL_ARG_WORKSPACE] = workspace_;
        }
        ctx_.scratch.bind(fpd, ctx_.eng, fwd_args_);
        impl_ = fpd.impl_info_str() + std::string(s.fuse_relu ? " + relu" : "");
        if (!backprop) return;
        float* diff_src = s.in_grad[0];
        if (!diff_src) {  // the primitive always writes diff_src
            unused_diff_src_.resize(data_md.get_size() / sizeof(float) + 1);
            diff_src = unused_diff_src_.data();
        }
        // Frozen: oneDNN 2.6 has no backward_data with a scale (use_scale), so the full backward
        // runs with the global statistics and its scale and shift gradients, C floats each, land
        // in a buffer of the op's own, never in the model's gradients.
        batch_normalization_backward::primitive_desc bpd(
            batch_normalization_backward::desc(prop_kind::backward, data_md, data_md, eps, fl), attr, ctx_.eng, fpd);
        bwd_ = batch_normalization_backward(bpd);
        bwd_args_ = {{DNNL_ARG_SRC, wrap(data_md, ctx_, s.in[0])},
                     {DNNL_ARG_DIFF_DST, wrap(data_md, ctx_, s.out_grad)},
                     {DNNL_ARG_MEAN, mean},
                     {DNNL_ARG_VARIANCE, var},
                     {DNNL_ARG_SCALE, wrap(c_md, ctx_, s.w[0])},
                     {DNNL_ARG_SHIFT, wrap(c_md, ctx_, s.w[1])},
                     {DNNL_ARG_DIFF_SRC, wrap(data_md, ctx_, diff_src)}};
        if (!training_) unused_diff_scale_shift_.resize(std::size_t(2 * c));
        float* diff_scale = training_ ? s.w_grad[0] : unused_diff_scale_shift_.data();
        float* diff_shift = training_ ? s.w_grad[1] : unused_diff_scale_shift_.data() + c;
        bwd_args_[DNNL_ARG_DIFF_SCALE] = wrap(c_md, ctx_, diff_scale);
        bwd_args_[DNNL_ARG_DIFF_SHIFT] = wrap(c_md, ctx_, diff_shift);
        if (workspace_) bwd_args_[DNNL_ARG_WORKSPACE] = workspace_;
        ctx_.scratch.bind(bpd, ctx_.eng, bwd_args_);
        impl_ += std::string(" / ") + bpd.impl_info_str();
    }

    void forward() override {
        run(fwd_, ctx_.strm, fwd_args_);
        if (!training_) return;
        // oneDNN's variance divides by the sample count; the moving variance is unbiased.
        const float keep = momentum_, take = 1.f - momentum_;
        const float bessel = samples_ > 1 ? float(samples_) / float(samples_ - 1) : 1.f;
        for (std::int64_t i = 0; i < channels_; ++i) {
            moving_mean_[i] = moving_mean_[i] * keep + mean_[std::size_t(i)] * take;
            moving_var_[i] = moving_var_[i] * keep + var_[std::size_t(i)] * bessel * take;
        }
    }

    void backward() override {
        if (bwd_) run(bwd_, ctx_.strm, bwd_args_);
    }
    std::string impl_info() const override { return impl_; }
    std::size_t workspace_bytes() const override {
        return (mean_.size() + var_.size() + unused_diff_src_.size() + unused_diff_scale_shift_.size()) * sizeof(float) +
               (workspace_ ? workspace_.get_desc().get_size() : 0);
    }
    bool backward_reads_output() const override { return false; }  // its input, statistics and workspace

private:
    CpuContext& ctx_;
    bool training_;
    float momentum_;
    std::int64_t channels_, samples_ = 0;
    float *moving_mean_, *moving_var_;
    std::vector<float> mean_, var_, unused_diff_src_;  // this batch's statistics
    std::vector<float> unused_diff_scale_shift_;       // frozen: where the primitive's scale and shift gradients go
    memory workspace_;  // fused ReLU: which outputs were clipped
    dnnl::primitive fwd_, bwd_;
    std::unordered_map<int, memory> fwd_args_, bwd_args_;
    std::string impl_;
};

}  // namespace

std::unique_ptr<CpuOp> make_batch_norm_op(const OpSetup& s) { return std::make_unique<BatchNormOp>(s); }

}  // namespace lf
