// Conv2D, DepthwiseConv2D and Conv2DTranspose on cuDNN over NHWC. Keras stores the kernel as
// (kh, kw, in, out) (depthwise: (kh, kw, in, multiplier), output channel c * multiplier + j;
// transposed: (kh, kw, out, in)), which is the transpose of cuDNN's KRSC filter layout: each
// forward transposes the live kernel into the op's workspace, and the filter gradient is
// transposed back into the model's gradients. A Conv2DTranspose runs its convolution
// backwards (Note [Conv2DTranspose on cuDNN]): its forward is cuDNN's backward-data, its data
// gradient cuDNN's forward. TensorFlow's 'same' padding may need one more row or column at the
// bottom or right than at the top or left, which cuDNN cannot express: such a convolution
// input is padded into the workspace first and convolved without padding (for a transposed
// layer: its output is written padded and cropped, its gradient padded). Algorithms come
// from cuDNN's heuristics within the plan's scratch budget, cached per shape for the process
// (Note [cuDNN algorithm cache]). In 16 bits the KRSC kernel and its gradient are 16-bit
// copies of the float32 weights (Note [Mixed precision on the CUDA backend]).
#include <algorithm>
#include <array>

#include "backend/cuda/algo_cache.h"
#include "backend/cuda/cuda_activation.h"
#include "backend/cuda/cuda_conv_geometry.h"
#include "backend/cuda/cuda_op_families.h"
#include "layerforge/core/error.h"
#include "layerforge/layers/registry.h"

namespace lf {

namespace {

CudaActivation activation_of(const NodeInfo& n) { return *cuda_activation(param_str(n.params, "activation")); }

// The op's workspace, in floats from its start. Sized as if the input needed a gradient
// whenever the plan trains, so that cuda_op_needs() can answer from the node alone. A padded
// convolution input keeps its copy and, for the data gradient, the padded gradient; a
// transposed layer's padded output is written in forward and its padded gradient in
// backward, one buffer for both.
struct ConvWorkspace {
    std::size_t kernel = 0, kernel_grad = 0, padded = 0, padded_grad = 0, activation = 0, floats = 0;
    ConvWorkspace(const CudaConvGeometry& g, const NodeInfo& n, std::int64_t batch, bool training, bool input_grad) {
        const std::size_t k = g.kernel_floats();
        const bool second_padded = !g.transposed && training && input_grad;
        kernel_grad = k;
        padded = kernel_grad + (training ? k : 0);
        padded_grad = padded + (g.padded_x ? g.padded_floats(batch) : 0);
        activation = padded_grad + (g.padded_x && second_padded ? g.padded_floats(batch) : 0);
        floats = activation + CudaPostActivation::workspace_floats(activation_of(n), g.output_floats(batch), training);
    }
};

class ConvOp final : public CudaOp {
public:
    explicit ConvOp(const CudaOpSetup& s)
        : ctx_(s.ctx), g_(s.node), batch_(s.batch), ws_(g_, s.node, s.batch, s.training, s.training),
          act_(s.ctx, activation_of(s.node), s.batch * g_.output_pixels(), g_.output_channels(), s.out, s.out_grad,
               s.workspace + ws_.activation, s.training, s.dtype),
          bias_(param_bool(s.node.params, "use_bias")), train_weights_(s.training && !s.frozen), in_(s.in[0]),
          in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]), w_(s.w), w_grad_(s.w_grad),
          scratch_(s.scratch), scratch_bytes_(s.scratch_bytes), dtype_(s.dtype) {
        float* ws = s.workspace;
        kernel_ = ws + ws_.kernel;
        kernel_grad_ = ws + ws_.kernel_grad;
        padded_ = g_.padded_x ? ws + ws_.padded : nullptr;
        padded_grad_ = g_.padded_x && !g_.transposed ? ws + ws_.padded_grad : nullptr;
        const lf_cuda_conv_shape shape = g_.shape(batch_, dtype_);
        lf_cuda_error e{};
        conv_ = ctx_.api().conv_create(ctx_.get(), &shape, &e);
        if (!conv_) cuda_check(e.code ? e.code : -1, e, "describing the convolution to cuDNN", ctx_.device());
        choose(g_.forward_pass());
        if (train_weights_) choose(ConvPass::BackwardFilter);
        if (s.training && in_grad_) choose(g_.data_grad_pass());
    }
    ~ConvOp() override { ctx_.api().conv_destroy(conv_); }

    void forward() override {
        transpose(LF_CUDA_F32, w_[0], dtype_, kernel_, g_.kernel_rows(), g_.k);  // (r s c) x k -> k x (r s c)
        if (g_.transposed) {
            backward_data(in_, padded_ ? padded_ : act_.pre());
            if (padded_) pad(padded_, act_.pre(), true);
        } else {
            const float* x = in_;
            if (padded_) {
                pad(in_, padded_, false);
                x = padded_;
            }
            conv_forward(x, act_.pre());
        }
        if (bias_)
            ctx_.run([&](lf_cuda_error* e) {
                return ctx_.api().add_bias(ctx_.get(), dtype_, act_.pre(), w_[1], rows(), g_.output_channels(), e);
            }, "bias");
        act_.forward();
    }

    void backward() override {
        const float* dpre = act_.backward();
        if (!train_weights_ && !in_grad_) return;
        // cuDNN's x and dy: the layer's input and output gradient, or for a transposed layer
        // its (padded) output gradient and its input.
        const float* x = g_.transposed ? dpre : in_;
        const float* dy = g_.transposed ? in_ : dpre;
        if (padded_) {
            if (g_.transposed) pad(dpre, padded_, false);
            x = padded_;  // a convolution's input was padded in forward
        }
        if (train_weights_) {
            backward_filter(x, dy);
            transpose(dtype_, kernel_grad_, LF_CUDA_F32, w_grad_[0], g_.k, g_.kernel_rows());
            if (bias_)
                ctx_.run([&](lf_cuda_error* e) {
                    return ctx_.api().bias_grad(ctx_.get(), dtype_, dpre, w_grad_[1], rows(), g_.output_channels(), 0,
                                                static_cast<float*>(scratch_), e);
                }, "bias gradient");
        }
        if (!in_grad_) return;
        if (g_.transposed) {
            conv_forward(x, in_grad_);
            return;
        }
        backward_data(dpre, padded_grad_ ? padded_grad_ : in_grad_);
        if (padded_grad_) pad(padded_grad_, in_grad_, true);
    }

    std::string impl_info() const override {
        const ConvPass data = g_.data_grad_pass();
        return std::string(g_.transposed ? "cudnnConvolution backward-data" : "cudnnConvolution") + " algo " +
               std::to_string(choice(g_.forward_pass()).algo) +
               (train_weights_ ? " / filter " + std::to_string(choice(ConvPass::BackwardFilter).algo) : "") +
               (in_grad_ && choice(data).chosen ? " / data " + std::to_string(choice(data).algo) : "") +
               (padded_ ? (g_.transposed ? " (output padded)" : " (input padded)") : "") + (bias_ ? "+bias" : "") +
               "+" + act_.name();
    }
    std::optional<CudaSoftmaxTail> softmax_tail() override {
        if (!act_.softmax()) return std::nullopt;
        return CudaSoftmaxTail{act_.logits(), act_.logits_grad()};
    }
    void fuse_softmax_into_loss(bool on) override { act_.fuse_softmax_into_loss(on); }

private:
    struct Choice {
        int algo = 0;
        std::size_t workspace_bytes = 0;
        bool chosen = false;
    };

    void choose(ConvPass pass) {
        const ConvAlgoKey key = g_.key(pass, batch_, ctx_.compute_capability(), dtype_);
        std::optional<ConvAlgoChoice> c = conv_algo_cache().find(key);
        if (!c) {
            // Within this convolution's own budget, not the plan's scratch: the cache's answer
            // must fit every plan that meets the same key.
            ConvAlgoChoice fresh;
            ctx_.run([&](lf_cuda_error* e) {
                return ctx_.api().conv_choose(ctx_.get(), conv_, int(pass), g_.scratch_budget(batch_), &fresh.algo,
                                              &fresh.workspace_bytes, e);
            }, "choosing a cuDNN convolution algorithm");
            c = conv_algo_cache().insert(key, fresh);
        }
        if (c->workspace_bytes > scratch_bytes_)
            throw runtime_error("cuDNN's algorithm for " + to_string(key) + " needs " + std::to_string(c->workspace_bytes) +
                                " bytes of workspace; the plan has " + std::to_string(scratch_bytes_));
        choices_[std::size_t(pass)] = {c->algo, c->workspace_bytes, true};
    }
    const Choice& choice(ConvPass pass) const { return choices_[std::size_t(pass)]; }

    // cuDNN's three passes over the op's descriptors, each with the algorithm chosen for it.
    void conv_forward(const float* x, float* y) const {
        const Choice& c = choice(ConvPass::Forward);
        ctx_.run([&](lf_cuda_error* e) {
            return ctx_.api().conv_forward(ctx_.get(), conv_, c.algo, x, kernel_, y, scratch_, c.workspace_bytes, e);
        }, "cudnnConvolutionForward");
    }
    void backward_data(const float* dy, float* dx) const {
        const Choice& c = choice(ConvPass::BackwardData);
        ctx_.run([&](lf_cuda_error* e) {
            return ctx_.api().conv_backward_data(ctx_.get(), conv_, c.algo, kernel_, dy, dx, scratch_,
                                                 c.workspace_bytes, e);
        }, "cudnnConvolutionBackwardData");
    }
    void backward_filter(const float* x, const float* dy) const {
        const Choice& c = choice(ConvPass::BackwardFilter);
        ctx_.run([&](lf_cuda_error* e) {
            return ctx_.api().conv_backward_filter(ctx_.get(), conv_, c.algo, x, dy, kernel_grad_, scratch_,
                                                   c.workspace_bytes, e);
        }, "cudnnConvolutionBackwardFilter");
    }

    std::int64_t rows() const { return batch_ * g_.output_pixels(); }
    void transpose(int from, const float* src, int to, float* dst, std::int64_t r, std::int64_t c) const {
        ctx_.run([&](lf_cuda_error* e) { return ctx_.api().transpose(ctx_.get(), from, src, to, dst, r, c, e); },
                 "kernel layout");
    }
    // An unpadded convolution input into its padded copy, or (crop) a padded one's interior back.
    void pad(const float* from, float* to, bool crop) const {
        const auto& p = g_.extra;
        ctx_.run([&](lf_cuda_error* e) {
            auto f = crop ? ctx_.api().crop2d : ctx_.api().pad2d;
            return f(ctx_.get(), dtype_, from, to, batch_, g_.x_h, g_.x_w, g_.x_c, p[0], p[1], p[2], p[3], e);
        }, crop ? "convolution padding backward" : "convolution padding");
    }

    const CudaContext& ctx_;
    CudaConvGeometry g_;
    std::int64_t batch_;
    ConvWorkspace ws_;
    CudaPostActivation act_;
    bool bias_, train_weights_;
    const float* in_;
    float* in_grad_;
    std::vector<float*> w_, w_grad_;
    void* scratch_;
    std::size_t scratch_bytes_;
    int dtype_;
    float *kernel_ = nullptr, *kernel_grad_ = nullptr, *padded_ = nullptr, *padded_grad_ = nullptr;
    lf_cuda_conv* conv_ = nullptr;
    std::array<Choice, 3> choices_{};  // by ConvPass
};

}  // namespace

const CudaOpFamily kCudaConv{
    .unsupported = [](const NodeInfo& n) { return cuda_activation_unsupported(param_str(n.params, "activation")); },
    .needs = [](const NodeInfo& n, std::int64_t batch, bool training, DType) {
        const CudaConvGeometry g(n);
        const std::size_t bias_sums = training ? LF_CUDA_REDUCE_FLOATS(g.output_channels()) * sizeof(float) : 0;
        return CudaOpNeeds{.workspace_floats = ConvWorkspace(g, n, batch, training, training).floats,
                           .scratch_bytes = std::max(g.scratch_budget(batch), bias_sums)};
    },
    .reads_output = [](const NodeInfo& n) { return activation_of(n).softmax() || activation_of(n).from_output(); },
    .make = [](const CudaOpSetup& s) -> std::unique_ptr<CudaOp> { return std::make_unique<ConvOp>(s); },
};

}  // namespace lf
