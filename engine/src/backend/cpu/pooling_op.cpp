// Window pooling on oneDNN pooling primitives over plain NHWC; max pooling's forward training
// pass writes a workspace (the argmax of each window) that its backward reads. Max pooling may
// also apply the relu of the convolution before it, as a post-op (see OpSetup::relu_after).
// Global pooling as plain loops over (batch, pixels, channels): memory-bound reductions that
// need no window geometry. (oneDNN's pooling with a whole-image window is correct too; an early
// test failure blamed on it was a tie between two maxima in the finite differences.)
#include <algorithm>
#include <cstring>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/max_pool_loops.h"
#include "backend/cpu/ops.h"
#include "backend/cpu/post_activation.h"
#include "layers/window.h"

namespace lf {

namespace {

using dnnl::memory;

class PoolingOp : public CpuOp {
public:
    explicit PoolingOp(const OpSetup& s)
        : ctx_(s.ctx),
          act_(s.ctx, s.relu_after ? "relu" : "linear", s.batch * s.node.layer.output[0] * s.node.layer.output[1],
               s.node.layer.output[2], s.out, s.out_grad, s.training, s.dtype) {
        using namespace dnnl;
        const std::string& type = s.node.spec->type;
        const Shape& in = s.node.inputs[0];
        const bool is_max = type == "MaxPool2D";
        const Window2D w = pool_window(in, s.node.params, type);
        auto src_md = memory::desc({s.batch, in[2], in[0], in[1]}, dnnl_type(s.dtype), memory::format_tag::nhwc);
        auto dst_md = memory::desc({s.batch, in[2], w.out[0], w.out[1]}, dnnl_type(s.dtype), memory::format_tag::nhwc);
        const memory::dims strides{w.stride[0], w.stride[1]}, kernel{w.kernel[0], w.kernel[1]},
            pad_l{w.pad_l[0], w.pad_l[1]}, pad_r{w.pad_r[0], w.pad_r[1]};
        // TensorFlow averages over the window's valid elements only; ONNX and PyTorch by default
        // over the whole window. oneDNN's max pooling never picks a padded element (-inf padding).
        const bool include_pad = !is_max && param_bool(s.node.params, "count_include_pad");
        const algorithm alg = is_max        ? algorithm::pooling_max
                              : include_pad ? algorithm::pooling_avg_include_padding
                                            : algorithm::pooling_avg_exclude_padding;
        // A training plan's pooling below every trainable layer (a frozen backbone) has no gradient
        // to pass down: it runs as at inference, without max pooling's workspace.
        const bool backward = s.training && !s.in_grad.empty() && s.in_grad[0];
        auto prop = backward ? prop_kind::forward_training : prop_kind::forward_inference;
        pooling_forward::primitive_desc fpd(
            pooling_forward::desc(prop, alg, src_md, dst_md, strides, kernel, pad_l, pad_r), act_.attr(), ctx_.eng);
        fwd_ = pooling_forward(fpd);
        fwd_args_ = {{DNNL_ARG_SRC, wrap(src_md, ctx_, s.in[0])},
                     {DNNL_ARG_DST, wrap(dst_md, ctx_, act_.primitive_dst())}};
        ctx_.scratch.bind(fpd, ctx_.eng, fwd_args_);
        impl_ = fpd.impl_info_str();
        if (!backward) return;
        if (is_max) {
            workspace_ = memory(fpd.workspace_desc(), ctx_.eng);
            fwd_args_[DNNL_ARG_WORKSPACE] = workspace_;
        }
        pooling_backward::primitive_desc bpd(
            pooling_backward::desc(alg, src_md, dst_md, strides, kernel, pad_l, pad_r), Scratchpad::attr(), ctx_.eng,
            fpd);
        bwd_ = pooling_backward(bpd);
        bwd_args_ = {{DNNL_ARG_DIFF_DST, wrap(dst_md, ctx_, act_.primitive_diff_dst())},
                     {DNNL_ARG_DIFF_SRC, wrap(src_md, ctx_, s.in_grad[0])}};
        if (is_max) bwd_args_[DNNL_ARG_WORKSPACE] = workspace_;
        ctx_.scratch.bind(bpd, ctx_.eng, bwd_args_);
        impl_ += std::string(" / ") + bpd.impl_info_str();
    }

    void forward() override {
        run(fwd_, ctx_.strm, fwd_args_);
        act_.forward();
    }
    void backward() override {
        if (!bwd_) return;
        act_.backward();
        run(bwd_, ctx_.strm, bwd_args_);
    }
    std::string impl_info() const override { return impl_ + act_.impl_info(); }
    std::size_t workspace_bytes() const override {
        return (workspace_ ? workspace_.get_desc().get_size() : 0) + act_.workspace_bytes();
    }
    // Max pooling itself reads its workspace, not its output; a relu post-op reads the output.
    bool backward_reads_output() const override { return act_.reads_output(); }

private:
    CpuContext& ctx_;
    PostActivation act_;
    dnnl::primitive fwd_, bwd_;
    memory workspace_;  // max pooling: argmax per window, written forward, read backward
    std::unordered_map<int, memory> fwd_args_, bwd_args_;
    std::string impl_;
};

// Float32 max pooling below AVX-512, where oneDNN's NHWC kernel is slow (max_pool_loops.h).
class MaxPoolLoopOp : public CpuOp {
public:
    MaxPoolLoopOp(const OpSetup& s, const Window2D& w)
        : loops_(s.batch, s.node.inputs[0][2], w), relu_(s.relu_after), in_(s.in[0]), out_(s.out),
          out_grad_(s.out_grad), in_grad_(s.training && !s.in_grad.empty() ? s.in_grad[0] : nullptr),
          reads_output_(relu_ && s.training && s.out_grad) {
        if (in_grad_ && !s.dry_run) argmax_.resize(loops_.outputs());
    }

    void forward() override { loops_.forward(in_, out_, argmax_.empty() ? nullptr : argmax_.data(), relu_); }
    void backward() override {
        if (in_grad_) loops_.backward(out_grad_, out_, argmax_.data(), in_grad_, relu_);
    }
    std::string impl_info() const override { return relu_ ? "loops:max_pool + post-op relu" : "loops:max_pool"; }
    std::size_t workspace_bytes() const override { return in_grad_ ? loops_.outputs() : 0; }  // the argmax
    // The relu (moved past the pooling) is differentiated from the pooled output.
    bool backward_reads_output() const override { return reads_output_; }

private:
    MaxPoolLoops loops_;
    bool relu_;
    const float* in_;
    float* out_;
    const float* out_grad_;
    float* in_grad_;
    bool reads_output_;
    std::vector<std::uint8_t> argmax_;  // per output element: the window offset of its maximum
};

class GlobalPoolingOp : public CpuOp {
public:
    explicit GlobalPoolingOp(const OpSetup& s)
        : max_(s.node.spec->op == LayerOp::GlobalMaxPooling2D), batch_(std::size_t(s.batch)),
          pixels_(std::size_t(s.node.inputs[0][0] * s.node.inputs[0][1])),
          channels_(std::size_t(s.node.inputs[0][2])), in_(s.in[0]), out_(s.out), out_grad_(s.out_grad),
          in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]) {
        if (max_ && in_grad_) argmax_.resize(batch_ * channels_);
    }

    void forward() override {
        for (std::size_t n = 0; n < batch_; ++n) {
            const float* x = in_ + n * pixels_ * channels_;
            float* y = out_ + n * channels_;
            std::copy(x, x + channels_, y);
            std::uint32_t* arg = argmax_.empty() ? nullptr : argmax_.data() + n * channels_;
            if (arg) std::fill(arg, arg + channels_, 0u);
            for (std::size_t p = 1; p < pixels_; ++p) {
                const float* row = x + p * channels_;
                if (!max_) {
                    for (std::size_t c = 0; c < channels_; ++c) y[c] += row[c];
                    continue;
                }
                for (std::size_t c = 0; c < channels_; ++c)
                    if (row[c] > y[c]) {
                        y[c] = row[c];
                        if (arg) arg[c] = std::uint32_t(p);
                    }
            }
            if (!max_)
                for (std::size_t c = 0; c < channels_; ++c) y[c] /= float(pixels_);
        }
    }

    void backward() override {
        if (!in_grad_) return;
        if (max_) std::memset(in_grad_, 0, batch_ * pixels_ * channels_ * sizeof(float));
        const float scale = 1.f / float(pixels_);
        for (std::size_t n = 0; n < batch_; ++n) {
            float* dx = in_grad_ + n * pixels_ * channels_;
            const float* dy = out_grad_ + n * channels_;
            if (max_) {
                const std::uint32_t* arg = argmax_.data() + n * channels_;
                for (std::size_t c = 0; c < channels_; ++c) dx[arg[c] * channels_ + c] = dy[c];
                continue;
            }
            for (std::size_t p = 0; p < pixels_; ++p)
                for (std::size_t c = 0; c < channels_; ++c) dx[p * channels_ + c] = dy[c] * scale;
        }
    }

    std::size_t workspace_bytes() const override { return argmax_.size() * sizeof(std::uint32_t); }

private:
    bool max_;
    std::size_t batch_, pixels_, channels_;
    const float* in_;
    float* out_;
    const float* out_grad_;
    float* in_grad_;
    std::vector<std::uint32_t> argmax_;  // GlobalMaxPooling2D: the winning pixel per (sample, channel)
};

}  // namespace

std::unique_ptr<CpuOp> make_pooling_op(const OpSetup& s) {
    if (s.node.spec->op == LayerOp::MaxPool2D && s.dtype == DType::Float32 && !cpu_isa_reaches(dnnl_cpu_isa_avx512_core)) {
        const Window2D w = pool_window(s.node.inputs[0], s.node.params, s.node.spec->type);
        if (MaxPoolLoops::fits(w)) return std::make_unique<MaxPoolLoopOp>(s, w);
    }
    return std::make_unique<PoolingOp>(s);
}
std::unique_ptr<CpuOp> make_global_pooling_op(const OpSetup& s) { return std::make_unique<GlobalPoolingOp>(s); }

}  // namespace lf
