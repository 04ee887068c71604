// Dropout with the counter-based masks of backend/dropout_mask.h. oneDNN 2.6 has no dropout
// primitive.
#include <cstring>

#include "backend/cpu/ops.h"
#include "backend/dropout_mask.h"

namespace lf {

namespace {

class DropoutOp : public CpuOp {
public:
    explicit DropoutOp(const OpSetup& s)
        : training_(s.training), seed_(s.seed), rate_(param_float(s.node.params, "rate")),
          count_(std::size_t(s.batch * s.node.inputs[0].elements())),
          first_(std::uint64_t(s.first_row * s.node.inputs[0].elements())), in_(s.in[0]), out_(s.out),
          out_grad_(s.out_grad), in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]) {
        if (training_) mask_.resize(count_);
    }

    bool backward_reads_output() const override { return false; }  // its mask

    void forward() override {
        if (!training_ || rate_ == 0) {
            std::memcpy(out_, in_, count_ * sizeof(float));
            return;
        }
        const std::uint64_t threshold = dropout::threshold(rate_), base = dropout::step_base(seed_, step_++);
        const float scale = dropout::keep_scale(rate_);
        for (std::size_t i = 0; i < count_; ++i) {
            mask_[i] = dropout::mask(base, first_ + i, threshold, scale);
            out_[i] = in_[i] * mask_[i];
        }
    }

    void seek_rng(std::uint64_t step) override { step_ = step; }

    void backward() override {
        if (!in_grad_) return;
        if (rate_ == 0) {
            std::memcpy(in_grad_, out_grad_, count_ * sizeof(float));
            return;
        }
        for (std::size_t i = 0; i < count_; ++i) in_grad_[i] = out_grad_[i] * mask_[i];
    }

    std::size_t workspace_bytes() const override { return mask_.size() * sizeof(float); }

private:
    bool training_;
    std::uint64_t seed_, step_ = 0;
    double rate_;
    std::size_t count_;
    std::uint64_t first_;  // the global index of element 0 (data-parallel ranks)
    const float* in_;
    float* out_;
    const float* out_grad_;
    float* in_grad_;
    std::vector<float> mask_;  // 0 or 1 / (1 - rate)
};

}  // namespace

std::unique_ptr<CpuOp> make_dropout_op(const OpSetup& s) { return std::make_unique<DropoutOp>(s); }

}  // namespace lf
