#include "layers/window.h"

#include "layerforge/core/error.h"
#include "layerforge/layers/registry.h"

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
                           const std::string& padding, const IntList& output_padding) {
    require_image(in, "Conv2DTranspose");
    if (output_padding.size() > 2)
        throw input_error("Conv2DTranspose: output_padding expects 2 integers, 1 (both axes) or none");
    Window2D w = window_base(in, kernel, strides, dilation);
    const bool same = padding == "same";
    for (std::size_t a = 0; a < 2; ++a) {
        const std::int64_t span = window_span(w, a), s = strides[a], full = (in[a] - 1) * s + span;
        if (output_padding.empty()) {  // Keras' deconv_output_length with output_padding=None
            w.out[a] = same ? in[a] * s : in[a] * s + std::max<std::int64_t>(span - s, 0);
        } else {
            const std::int64_t op = output_padding[output_padding.size() == 1 ? 0 : a];
            if (op < 0 || op >= s)
                throw input_error("Conv2DTranspose: output_padding " + std::to_string(op) +
                                  " must be at least 0 and smaller than the stride " + std::to_string(s));
            w.out[a] = full - (same ? 2 * (span / 2) : 0) + op;
        }
        // TensorFlow computes it as the gradient of a convolution from out back to in.
        if (same && (w.out[a] + s - 1) / s != in[a])
            throw input_error("Conv2DTranspose: an output of " + std::to_string(w.out[a]) +
                              " is not what a 'same' convolution with stride " + std::to_string(s) + " maps to " +
                              std::to_string(in[a]) + "; choose another output_padding");
        if (w.out[a] < 1) throw input_error("Conv2DTranspose: the output would be empty; check output_padding");
        w.pad_l[a] = same ? std::max<std::int64_t>(full - w.out[a], 0) / 2 : 0;
        w.pad_r[a] = full - w.out[a] - w.pad_l[a];
    }
    return w;
}

Window2D transposed_window(const Shape& in, const Params& p) {
    return transposed_window(in, param_list(p, "kernel_size"), param_list(p, "strides"), param_list(p, "dilation_rate"),
                             param_str(p, "padding"), param_list(p, "output_padding"));
}

}  // namespace lf
