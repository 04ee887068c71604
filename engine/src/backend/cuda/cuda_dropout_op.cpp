// Dropout with the counter-based masks of backend/dropout_mask.h, which the CPU backend draws
// too: both drop the same units, and a resumed run continues the same stream (seek_rng). The
// step is the plan's counter in device memory, which its training forward pass advances: a
// replayed graph draws new masks.
#include "backend/cuda/cuda_op_families.h"
#include "backend/dropout_mask.h"
#include "layerforge/layers/registry.h"

namespace lf {

namespace {

class DropoutOp final : public CudaOp {
public:
    explicit DropoutOp(const CudaOpSetup& s)
        : ctx_(s.ctx), training_(s.training), seed_(s.seed), step_(s.step), rate_(param_float(s.node.params, "rate")),
          count_(std::size_t(s.batch * s.node.inputs[0].elements())),
          first_(std::uint64_t(s.first_row * s.node.inputs[0].elements())), in_(s.in[0]), out_(s.out),
          out_grad_(s.out_grad), in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]), mask_(s.workspace),
          dtype_(s.dtype), elem_(s.elem()) {}

    void forward() override {
        if (!training_ || rate_ == 0) return copy(out_, in_);
        const std::uint64_t threshold = dropout::threshold(rate_);
        const float scale = dropout::keep_scale(rate_);
        ctx_.run([&](lf_cuda_error* e) {
            return ctx_.api().dropout_forward(ctx_.get(), dtype_, in_, out_, mask_, count_, seed_, step_, first_, threshold, scale, e);
        }, "dropout");
    }

    void backward() override {
        if (!in_grad_) return;
        copy(in_grad_, out_grad_);
        if (rate_ == 0) return;
        ctx_.run([&](lf_cuda_error* e) { return ctx_.api().multiply(ctx_.get(), dtype_, in_grad_, mask_, count_, 1, 1, 0, e); },
                 "dropout backward");
    }

    std::string impl_info() const override { return "lf_cuda:dropout"; }

private:
    void copy(float* to, const float* from) const {
        ctx_.run([&](lf_cuda_error* e) { return ctx_.api().copy_on_device(ctx_.get(), to, from, count_ * elem_, e); }, "copy");
    }
    const CudaContext& ctx_;
    bool training_;
    std::uint64_t seed_;
    const std::uint64_t* step_;  // device memory
    double rate_;
    std::size_t count_;
    std::uint64_t first_;  // the global index of element 0 (data-parallel ranks)
    const float* in_;
    float* out_;
    const float* out_grad_;
    float* in_grad_;
    float* mask_;  // 0 or 1 / (1 - rate), from the last forward, in dtype_
    int dtype_;
    std::size_t elem_;
};

}  // namespace

const CudaOpFamily kCudaDropout{
    .unsupported = nullptr,
    .needs = [](const NodeInfo& n, std::int64_t batch, bool training, DType) {
        return CudaOpNeeds{.workspace_floats = training ? std::size_t(batch * n.inputs[0].elements()) : 0};
    },
    .reads_output = nullptr,
    .make = [](const CudaOpSetup& s) -> std::unique_ptr<CudaOp> { return std::make_unique<DropoutOp>(s); },
};

}  // namespace lf
