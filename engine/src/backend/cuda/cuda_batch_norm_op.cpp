// BatchNormalization over the channel (last) axis, with the CPU op's semantics
// (backend/cpu/batch_norm_op.cpp): training normalises with the batch's mean and biased
// variance and then moves the moving statistics (momentum, the variance made unbiased);
// inference and a frozen layer normalise with the moving statistics, and a frozen layer never
// moves them and passes the data gradient alone. The moving statistics are weights of the
// model, so they live in the device model's weights and come back with pull_weights().
#include "backend/cuda/cuda_op_families.h"
#include "layerforge/layers/registry.h"

namespace lf {

namespace {

class BatchNormOp final : public CudaOp {
public:
    explicit BatchNormOp(const CudaOpSetup& s)
        : ctx_(s.ctx), training_(s.training && !s.frozen), backprop_(s.training && s.out_grad),
          momentum_(float(param_float(s.node.params, "momentum"))), eps_(float(param_float(s.node.params, "epsilon"))),
          c_(s.node.layer.output.dims.back()), rows_(s.batch * s.node.inputs[0].elements() / c_), in_(s.in[0]),
          out_(s.out), out_grad_(s.out_grad), in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]), w_(s.w),
          w_grad_(s.w_grad), mean_(training_ ? s.workspace : s.w[2]), var_(training_ ? s.workspace + c_ : s.w[3]),
          partials_(static_cast<float*>(s.scratch)), dtype_(s.dtype) {}

    void forward() override {
        const lf_cuda_api& a = ctx_.api();
        if (training_)
            ctx_.run([&](lf_cuda_error* e) { return a.bn_stats(ctx_.get(), dtype_, in_, mean_, var_, rows_, c_, partials_, e); },
                     "batch statistics");
        ctx_.run([&](lf_cuda_error* e) {
            return a.bn_forward(ctx_.get(), dtype_, in_, mean_, var_, w_[0], w_[1], eps_, out_, rows_, c_, e);
        }, "batch normalization");
        if (!training_) return;
        const float bessel = rows_ > 1 ? float(rows_) / float(rows_ - 1) : 1.f;
        ctx_.run([&](lf_cuda_error* e) {
            return a.bn_moving(ctx_.get(), mean_, var_, w_[2], w_[3], momentum_, bessel, c_, e);
        }, "moving statistics");
    }

    void backward() override {
        if (!backprop_ || (!training_ && !in_grad_)) return;
        ctx_.run([&](lf_cuda_error* e) {
            return ctx_.api().bn_backward(ctx_.get(), dtype_, in_, out_grad_, mean_, var_, w_[0], eps_,
                                          training_ ? w_grad_[0] : nullptr, training_ ? w_grad_[1] : nullptr, in_grad_,
                                          rows_, c_, partials_, e);
        }, "batch normalization backward");
    }
    std::string impl_info() const override { return training_ ? "lf_cuda:batch_norm" : "lf_cuda:batch_norm (moving statistics)"; }

private:
    const CudaContext& ctx_;
    bool training_, backprop_;
    float momentum_, eps_;
    std::int64_t c_, rows_;
    const float* in_;
    float* out_;
    const float* out_grad_;
    float* in_grad_;
    std::vector<float*> w_, w_grad_;  // gamma, beta, moving mean, moving variance
    float* mean_;  // the batch's (workspace) while training, else the moving ones
    float* var_;
    float* partials_;  // the per-channel sums' partials, in the plan's scratch
    int dtype_;
};

}  // namespace

const CudaOpFamily kCudaBatchNorm{
    .unsupported = nullptr,
    .needs = [](const NodeInfo& n, std::int64_t, bool training, DType) {
        const std::size_t c = std::size_t(n.layer.output.dims.back());
        return CudaOpNeeds{.workspace_floats = training ? 2 * c : 0,
                           .scratch_bytes = training ? LF_CUDA_REDUCE_FLOATS(c) * sizeof(float) : 0};
    },
    .reads_output = nullptr,
    .make = [](const CudaOpSetup& s) -> std::unique_ptr<CudaOp> { return std::make_unique<BatchNormOp>(s); },
};

}  // namespace lf
