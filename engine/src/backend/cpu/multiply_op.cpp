// Multiply as plain loops over (batch, pixels, channels): an operand is either the output's
// shape or a (1, 1, C) broadcast over the pixels (layers/merge.cpp). Memory-bound, so loops are
// as fast as a oneDNN binary primitive and handle any number of inputs. Backward: each input's
// gradient is the output gradient times the other inputs, summed over the pixels it was
// broadcast to.
#include <algorithm>

#include "backend/cpu/ops.h"

namespace lf {

bool multiply_broadcasts(const Shape& operand, const Shape& full);  // layers/merge.cpp

namespace {

class MultiplyOp : public CpuOp {
public:
    explicit MultiplyOp(const OpSetup& s)
        : in_(s.in), in_grad_(s.in_grad), out_(s.out), out_grad_(s.out_grad), batch_(std::size_t(s.batch)) {
        const Shape& full = s.node.layer.output;
        channels_ = std::size_t(full.rank() == 0 ? 1 : full.dims.back());
        pixels_ = std::size_t(full.elements()) / channels_;
        for (const Shape& x : s.node.inputs) broadcast_.push_back(multiply_broadcasts(x, full));
    }

    void forward() override {
        for (std::size_t n = 0; n < batch_; ++n)
            for (std::size_t p = 0; p < pixels_; ++p) {
                float* y = out_ + (n * pixels_ + p) * channels_;
                std::copy(at(0, n, p), at(0, n, p) + channels_, y);
                for (std::size_t i = 1; i < in_.size(); ++i) {
                    const float* x = at(i, n, p);
                    for (std::size_t c = 0; c < channels_; ++c) y[c] *= x[c];
                }
            }
    }

    void backward() override {
        for (std::size_t i = 0; i < in_.size(); ++i) {
            float* g = in_grad_.empty() ? nullptr : in_grad_[i];
            if (!g) continue;
            if (broadcast_[i]) std::fill(g, g + batch_ * channels_, 0.f);
            for (std::size_t n = 0; n < batch_; ++n)
                for (std::size_t p = 0; p < pixels_; ++p) {
                    const float* dy = out_grad_ + (n * pixels_ + p) * channels_;
                    float* dx = g + (n * (broadcast_[i] ? 1 : pixels_) + (broadcast_[i] ? 0 : p)) * channels_;
                    for (std::size_t c = 0; c < channels_; ++c) {
                        float others = dy[c];
                        for (std::size_t j = 0; j < in_.size(); ++j)
                            if (j != i) others *= at(j, n, p)[c];
                        dx[c] = broadcast_[i] ? dx[c] + others : others;
                    }
                }
        }
    }

    bool backward_reads_output() const override { return false; }

private:
    // Input i's channels at pixel p of sample n.
    const float* at(std::size_t i, std::size_t n, std::size_t p) const {
        return in_[i] + (broadcast_[i] ? n : n * pixels_ + p) * channels_;
    }

    std::vector<const float*> in_;
    std::vector<float*> in_grad_;
    float* out_;
    const float* out_grad_;
    std::size_t batch_, pixels_ = 1, channels_ = 1;
    std::vector<bool> broadcast_;
};

}  // namespace

std::unique_ptr<CpuOp> make_multiply_op(const OpSetup& s) { return std::make_unique<MultiplyOp>(s); }

}  // namespace lf
