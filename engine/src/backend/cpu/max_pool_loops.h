#pragma once
// Max pooling over NHWC float32 as plain loops, for CPUs below AVX-512. There oneDNN 2.6 runs
// NHWC max pooling with jit:avx2, which took 11.7 ms forward (writing its argmax workspace) and
// 9.0 ms backward for the tutorial CNN's first pooling at batch 128 on one thread of a Zen 2
// core, more than PyTorch's whole pair of poolings; these loops, vectorised along the channels,
// take 3.8 and 2.1 ms there (bench_step --kernels). On AVX-512 oneDNN's own kernels stay
// (make_pooling_op).
#include <cstddef>
#include <cstdint>

#include "layers/window.h"

namespace lf {

class MaxPoolLoops {
public:
    // Whether the loops can take this window: its argmax is kept in one byte.
    static bool fits(const Window2D& w) { return w.kernel[0] * w.kernel[1] <= 256; }

    MaxPoolLoops(std::int64_t batch, std::int64_t channels, const Window2D& w) : n_(batch), c_(channels), w_(w) {}

    // y = max over each window of x (padding never wins); relu: max(y, 0) (the ReLU moved past
    // the pooling). argmax (one byte per output element, the window offset kh * kw_size + kw)
    // may be null at inference.
    void forward(const float* x, float* y, std::uint8_t* argmax, bool relu) const;

    // dx = dy routed to each window's argmax, summed where windows overlap, zero elsewhere;
    // with relu, only where the pooled output y is positive (y is read only then).
    void backward(const float* dy, const float* y, const std::uint8_t* argmax, float* dx, bool relu) const;

    std::size_t outputs() const { return std::size_t(n_ * w_.out[0] * w_.out[1] * c_); }

private:
    bool tiles_exactly() const;  // every input element in exactly one window

    std::int64_t n_, c_;
    Window2D w_;
};

}  // namespace lf
