#include "backend/cpu/max_pool_loops.h"

#include <algorithm>
#include <cstring>

#include "core/slices.h"
#include "core/vector_clones.h"

namespace lf {

namespace {

// Channels are taken 64 at a time through local arrays: the compiler vectorises the max and
// the argmax select over them (a byte-wide argmax written in the same loop kept it scalar, and
// its branches on random data made the loop as slow as oneDNN's).
constexpr std::int64_t kChunk = 64;

// The valid part [begin, end) of a window starting at `origin` (negative: padding) along an
// axis of `size` elements.
struct Span {
    std::int64_t begin, end;
};
Span clip(std::int64_t origin, std::int64_t kernel, std::int64_t size) {
    return {std::max<std::int64_t>(0, -origin), std::min(kernel, size - origin)};
}

struct Window {  // one output pixel's window in its sample's input
    std::int64_t h0, w0;  // its origin (may be negative: padding)
    Span kh, kw;          // its valid taps
};

struct Pixel {
    std::int64_t sample;
    Window window;
};

// Output pixel `u`, counted over (sample, row, column), and its window.
Pixel pixel_of(const Window2D& w, std::int64_t u) {
    const std::int64_t r = u % (w.out[0] * w.out[1]) / w.out[1], c = u % w.out[1];
    const std::int64_t h0 = r * w.stride[0] - w.pad_l[0], w0 = c * w.stride[1] - w.pad_l[1];
    return {u / (w.out[0] * w.out[1]), {h0, w0, clip(h0, w.kernel[0], w.in[0]), clip(w0, w.kernel[1], w.in[1])}};
}
LF_VECTOR_CLONES void max_of_window(const float* x, const Window& p, std::int64_t width, std::int64_t channels, std::int64_t kw_size,
                                    bool relu, float* y, std::uint8_t* argmax) {
    for (std::int64_t c0 = 0; c0 < channels; c0 += kChunk) {
        const std::int64_t n = std::min(kChunk, channels - c0);
        float m[kChunk];
        std::int32_t a[kChunk];
        const float* first = x + ((p.h0 + p.kh.begin) * width + p.w0 + p.kw.begin) * channels + c0;
        const auto first_tap = std::int32_t(p.kh.begin * kw_size + p.kw.begin);
        for (std::int64_t i = 0; i < n; ++i) m[i] = first[i], a[i] = first_tap;
        for (std::int64_t kh = p.kh.begin; kh < p.kh.end; ++kh)
            for (std::int64_t kw = p.kw.begin; kw < p.kw.end; ++kw) {
                const float* t = x + ((p.h0 + kh) * width + p.w0 + kw) * channels + c0;
                const auto tap = std::int32_t(kh * kw_size + kw);
                for (std::int64_t i = 0; i < n; ++i) {
                    const bool more = t[i] > m[i];  // strictly: the first maximum wins, as in oneDNN
                    m[i] = more ? t[i] : m[i];
                    a[i] = more ? tap : a[i];
                }
            }
        if (relu)
            for (std::int64_t i = 0; i < n; ++i) m[i] = m[i] > 0.f ? m[i] : 0.f;
        std::memcpy(y + c0, m, std::size_t(n) * sizeof(float));
        if (argmax)
            for (std::int64_t i = 0; i < n; ++i) argmax[c0 + i] = std::uint8_t(a[i]);
    }
}

// The gradient reaching each output element: dy, or 0 where a relu cut the output.
LF_VECTOR_CLONES void passed_gradient(const float* dy, const float* y, std::int64_t n, bool relu, float* g) {
    for (std::int64_t i = 0; i < n; ++i) g[i] = relu && !(y[i] > 0.f) ? 0.f : dy[i];
}

// Windows that tile the input: every input element of the window written, g at the argmax.
LF_VECTOR_CLONES void route_window(const float* dy, const float* y, const std::uint8_t* argmax, const Window& p,
                                   float* dx, std::int64_t width, std::int64_t channels, std::int64_t kw_size,
                                   bool relu) {
    for (std::int64_t c0 = 0; c0 < channels; c0 += kChunk) {
        const std::int64_t n = std::min(kChunk, channels - c0);
        float g[kChunk];
        std::int32_t a[kChunk];
        passed_gradient(dy + c0, y + c0, n, relu, g);
        for (std::int64_t i = 0; i < n; ++i) a[i] = argmax[c0 + i];
        for (std::int64_t kh = p.kh.begin; kh < p.kh.end; ++kh)
            for (std::int64_t kw = p.kw.begin; kw < p.kw.end; ++kw) {
                float* d = dx + ((p.h0 + kh) * width + p.w0 + kw) * channels + c0;
                const auto tap = std::int32_t(kh * kw_size + kw);
                for (std::int64_t i = 0; i < n; ++i) d[i] = a[i] == tap ? g[i] : 0.f;
            }
    }
}

// Splits [0, units) over the plan's threads (core/slices.h), each unit `size` elements: the
// slices of the elements, rounded to whole units.
template <class Fn>
void for_each_unit(std::int64_t units, std::int64_t size, Fn&& fn) {
    const auto whole = [size](std::size_t e) { return std::int64_t((e + std::size_t(size) - 1) / std::size_t(size)); };
    core_detail::for_each_slice(std::size_t(units * size), [&](std::size_t begin, std::size_t end) {
        for (std::int64_t u = whole(begin); u < whole(end); ++u) fn(u);
    });
}

}  // namespace

bool MaxPoolLoops::tiles_exactly() const {
    for (int a = 0; a < 2; ++a)
        if (w_.stride[a] != w_.kernel[a] || w_.pad_l[a] != 0 || w_.in[a] != w_.out[a] * w_.kernel[a]) return false;
    return true;
}

void MaxPoolLoops::forward(const float* x, float* y, std::uint8_t* argmax, bool relu) const {
    const std::int64_t in_size = w_.in[0] * w_.in[1] * c_;
    for_each_unit(std::int64_t(outputs()) / c_, c_, [&](std::int64_t u) {
        const Pixel p = pixel_of(w_, u);
        max_of_window(x + p.sample * in_size, p.window, w_.in[1], c_, w_.kernel[1], relu, y + u * c_,
                      argmax ? argmax + u * c_ : nullptr);
    });
}

void MaxPoolLoops::backward(const float* dy, const float* y, const std::uint8_t* argmax, float* dx, bool relu) const {
    const std::int64_t pixels = w_.out[0] * w_.out[1], in_size = w_.in[0] * w_.in[1] * c_;
    if (tiles_exactly()) {  // each input element in one window: one pass, no zeroing
        for_each_unit(n_ * pixels, c_, [&](std::int64_t u) {
            const Pixel p = pixel_of(w_, u);
            route_window(dy + u * c_, y + u * c_, argmax + u * c_, p.window, dx + p.sample * in_size, w_.in[1], c_,
                         w_.kernel[1], relu);
        });
        return;
    }
    // Overlapping windows, padding or uncovered edges: per sample (samples never share inputs),
    // zeroed, then each window's gradient added at its argmax.
    for_each_unit(n_, in_size, [&](std::int64_t n) {
        float* d = dx + n * in_size;
        std::memset(d, 0, std::size_t(in_size) * sizeof(float));
        float g[kChunk];
        for (std::int64_t u = n * pixels; u < (n + 1) * pixels; ++u) {
            const Window p = pixel_of(w_, u).window;
            for (std::int64_t c0 = 0; c0 < c_; c0 += kChunk) {
                const std::int64_t k = std::min(kChunk, c_ - c0);
                passed_gradient(dy + u * c_ + c0, y + u * c_ + c0, k, relu, g);
                for (std::int64_t i = 0; i < k; ++i) {
                    const std::int64_t tap = argmax[u * c_ + c0 + i];
                    const std::int64_t h = p.h0 + tap / w_.kernel[1], w = p.w0 + tap % w_.kernel[1];
                    d[(h * w_.in[1] + w) * c_ + c0 + i] += g[i];
                }
            }
        }
    });
}

}  // namespace lf
