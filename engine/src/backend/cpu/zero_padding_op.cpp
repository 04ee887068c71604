// ZeroPadding2D as row copies over NHWC: each input row (width x channels contiguous values)
// lands inside a zeroed output; the backward pass copies the interior rows back.
#include <cstring>

#include "backend/cpu/ops.h"

namespace lf {

namespace {

class ZeroPaddingOp : public CpuOp {
public:
    explicit ZeroPaddingOp(const OpSetup& s)
        : in_(s.in[0]), out_(s.out), out_grad_(s.out_grad), in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]) {
        const Shape &in = s.node.inputs[0], &out = s.node.layer.output;
        const IntList& pad = param_list(s.node.params, "padding");
        images_ = std::size_t(s.batch);
        in_rows_ = std::size_t(in[0]);
        row_ = std::size_t(in[1] * in[2]);
        out_row_ = std::size_t(out[1] * out[2]);
        out_image_ = std::size_t(out[0]) * out_row_;
        offset_ = std::size_t(pad[0]) * out_row_ + std::size_t(pad[2] * in[2]);
    }

    void forward() override {
        std::memset(out_, 0, images_ * out_image_ * sizeof(float));
        for_rows([](float* padded, float* plain, std::size_t n) { std::memcpy(padded, plain, n * sizeof(float)); },
                 out_, const_cast<float*>(in_));
    }

    void backward() override {
        if (!in_grad_) return;
        for_rows([](float* padded, float* plain, std::size_t n) { std::memcpy(plain, padded, n * sizeof(float)); },
                 out_grad_, in_grad_);
    }

private:
    template <class F>
    void for_rows(F copy, float* padded, float* plain) {
        for (std::size_t i = 0; i < images_; ++i)
            for (std::size_t r = 0; r < in_rows_; ++r)
                copy(padded + i * out_image_ + offset_ + r * out_row_, plain + (i * in_rows_ + r) * row_, row_);
    }

    const float* in_;
    float* out_;
    float* out_grad_;
    float* in_grad_;
    std::size_t images_ = 0, in_rows_ = 0, row_ = 0, out_row_ = 0, out_image_ = 0, offset_ = 0;
};

}  // namespace

std::unique_ptr<CpuOp> make_zero_padding_op(const OpSetup& s) { return std::make_unique<ZeroPaddingOp>(s); }

}  // namespace lf
