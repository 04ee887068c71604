// Dropout with the CPU backend's counter-based masks (backend/cpu/dropout_op.cpp): the mask of
// element i at step t is a function of (seed, t, i) only, so both backends drop the same units
// and a resumed run continues the same stream (seek_rng).
#include "backend/cuda/cuda_op_families.h"
#include "layerforge/layers/registry.h"

namespace lf {

namespace {

class DropoutOp final : public CudaOp {
public:
    explicit DropoutOp(const CudaOpSetup& s)
        : ctx_(s.ctx), training_(s.training), seed_(s.seed), rate_(param_float(s.node.params, "rate")),
          count_(std::size_t(s.batch * s.node.inputs[0].elements())), in_(s.in[0]), out_(s.out),
          out_grad_(s.out_grad), in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]), mask_(s.workspace) {}

    void forward() override {
        if (!training_ || rate_ == 0) return copy(out_, in_);
        const std::uint64_t threshold = std::uint64_t(rate_ * double(1ULL << 32));
        const float scale = float(1.0 / (1.0 - rate_));
        const std::uint64_t step = step_++;
        ctx_.run([&](lf_cuda_error* e) {
            return ctx_.api().dropout_forward(ctx_.get(), in_, out_, mask_, count_, seed_, step, threshold, scale, e);
        }, "dropout");
    }

    void backward() override {
        if (!in_grad_) return;
        copy(in_grad_, out_grad_);
        if (rate_ == 0) return;
        ctx_.run([&](lf_cuda_error* e) { return ctx_.api().multiply(ctx_.get(), in_grad_, mask_, count_, 1, 1, 0, e); },
                 "dropout backward");
    }

    void seek_rng(std::uint64_t step) override { step_ = step; }
    std::string impl_info() const override { return "lf_cuda:dropout"; }

private:
    void copy(float* to, const float* from) const {
        ctx_.run([&](lf_cuda_error* e) { return ctx_.api().copy_on_device(ctx_.get(), to, from, count_ * 4, e); }, "copy");
    }
    const CudaContext& ctx_;
    bool training_;
    std::uint64_t seed_, step_ = 0;
    double rate_;
    std::size_t count_;
    const float* in_;
    float* out_;
    const float* out_grad_;
    float* in_grad_;
    float* mask_;  // 0 or 1 / (1 - rate), from the last forward
};

}  // namespace

const CudaOpFamily kCudaDropout{
    .unsupported = nullptr,
    .needs = [](const NodeInfo& n, std::int64_t batch, bool training) {
        return CudaOpNeeds{.workspace_floats = training ? std::size_t(batch * n.inputs[0].elements()) : 0};
    },
    .reads_output = nullptr,
    .make = [](const CudaOpSetup& s) -> std::unique_ptr<CudaOp> { return std::make_unique<DropoutOp>(s); },
};

}  // namespace lf
