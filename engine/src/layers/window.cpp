#include "layers/window.h"

#include "layerforge/core/error.h"

namespace lf {

void require_image(const Shape& in, const std::string& what) {
    if (in.rank() != 3)
        throw input_error(what + " expects (height, width, channels) input, got " + in.str() +
                          ": use Reshape to add a channel axis");
}

namespace {

// The window's own parameters over the (H, W) of `in`; output and padding still to fill.
Window2D window_base(const Shape& in, const IntList& kernel, const IntList& strides, const IntList& dilation) {
    Window2D w;
    for (std::size_t a = 0; a < 2; ++a) {
        w.kernel[a] = kernel[a];
        w.stride[a] = strides[a];
        w.dilation[a] = dilation[a];
        w.in[a] = in[a];
    }
    return w;
}

std::int64_t window_span(const Window2D& w, std::size_t a) { return (w.kernel[a] - 1) * w.dilation[a] + 1; }

}  // namespace

Window2D conv_window(const Shape& in, const IntList& kernel, const IntList& strides, const IntList& dilation,
                     const std::string& padding, const std::string& what) {
    require_image(in, what);
    Window2D w = window_base(in, kernel, strides, dilation);
    for (std::size_t a = 0; a < 2; ++a) {
        const std::int64_t span = window_span(w, a);
        if (padding == "same") {
            w.out[a] = (in[a] + strides[a] - 1) / strides[a];
            const std::int64_t total = std::max<std::int64_t>((w.out[a] - 1) * strides[a] + span - in[a], 0);
            w.pad_l[a] = total / 2;
            w.pad_r[a] = total - w.pad_l[a];
        } else {
            if (in[a] < span)
                throw input_error(what + ": the " + std::to_string(span) + "-wide window does not fit the input " +
                                  in.str() + " with padding 'valid'; use padding 'same' or a smaller kernel");
            w.out[a] = (in[a] - span) / strides[a] + 1;
        }
    }
    return w;
}

Window2D transposed_window(const Shape& in, const IntList& kernel, const IntList& strides, const IntList& dilation,
                           const std::string& padding) {
    require_image(in, "Conv2DTranspose");
    Window2D w = window_base(in, kernel, strides, dilation);
    for (std::size_t a = 0; a < 2; ++a) {
        const std::int64_t span = window_span(w, a);
        if (padding == "same") {
            // The gradient of a 'same' convolution from in * stride to in.
            if (span < strides[a])
                throw input_error("Conv2DTranspose with padding 'same' needs kernel_size >= strides");
            w.out[a] = in[a] * strides[a];
            w.pad_l[a] = (span - strides[a]) / 2;
            w.pad_r[a] = span - strides[a] - w.pad_l[a];
        } else {
            w.out[a] = (in[a] - 1) * strides[a] + span;
        }
    }
    return w;
}

}  // namespace lf
