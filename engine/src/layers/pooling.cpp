// MaxPool2D / AveragePooling2D (window pooling) and GlobalAveragePooling2D /
// GlobalMaxPooling2D (one value per channel) over channels-last images.
// CPU forward/backward: backend/cpu/pooling_op.cpp.
#include "layerforge/core/checked.h"
#include "layerforge/core/error.h"
#include "layers/builtin.h"
#include "layers/window.h"

namespace lf {

// Pooling strides default to the pool size (Keras' strides=None); an empty list means that,
// and a single number is square.
IntList pool_strides(const Params& p) {
    const IntList& s = param_list(p, "strides");
    if (s.empty()) return param_list(p, "pool_size");
    return s.size() == 1 ? IntList{s[0], s[0]} : s;
}

namespace {

// The output size along one axis with explicit padding: floor or, with ceil_mode, ceil as
// PyTorch and ONNX count, where a last window that starts in the bottom/right padding is
// dropped. pad_r then covers the whole last window (beyond `pad_end` with ceil_mode).
void explicit_axis(Window2D& w, std::size_t a, std::int64_t pad_begin, std::int64_t pad_end, bool ceil_mode,
                   const std::string& what) {
    const std::int64_t k = w.kernel[a], s = w.stride[a], span = w.in[a] + pad_begin + pad_end;
    if (pad_begin >= k || pad_end >= k)
        throw input_error(what + ": padding must be smaller than the pool size");
    if (span < k)
        throw input_error(what + ": the " + std::to_string(k) + "-wide window does not fit the padded input");
    w.out[a] = (span - k + (ceil_mode ? s - 1 : 0)) / s + 1;
    if (ceil_mode && (w.out[a] - 1) * s >= w.in[a] + pad_begin) --w.out[a];
    w.pad_l[a] = pad_begin;
    w.pad_r[a] = (w.out[a] - 1) * s + k - w.in[a] - pad_begin;
}

}  // namespace

Window2D pool_window(const Shape& in, const Params& p, const std::string& what) {
    IntList strides = pool_strides(p);
    if (strides.size() != 2) throw input_error(what + ": strides expects 2 integers (or none for the pool size)");
    const std::string& padding = param_str(p, "padding");
    const bool ceil_mode = param_bool(p, "ceil_mode");
    if (padding == "same") {
        if (ceil_mode) throw input_error(what + ": ceil_mode needs padding 'valid' or 'explicit'");
        return conv_window(in, param_list(p, "pool_size"), strides, {1, 1}, padding, what);
    }
    IntList pads{0, 0, 0, 0};
    if (padding == "explicit") {
        pads = param_list(p, "explicit_padding");
        if (pads.size() != 4)
            throw input_error(what + ": padding 'explicit' needs explicit_padding as 4 integers: top, bottom, left, right");
    }
    require_image(in, what);
    Window2D w;
    w.kernel = {param_list(p, "pool_size")[0], param_list(p, "pool_size")[1]};
    w.stride = {strides[0], strides[1]};
    w.in = {in[0], in[1]};
    explicit_axis(w, 0, pads[0], pads[1], ceil_mode, what);
    explicit_axis(w, 1, pads[2], pads[3], ceil_mode, what);
    // The divisor of a window that reaches past the bottom/right padding is not defined alike
    // by every runtime; oneDNN would count the extra rows.
    if (what == "AveragePooling2D" && param_bool(p, "count_include_pad") && (w.pad_r[0] > pads[1] || w.pad_r[1] > pads[3]))
        throw input_error(what + ": ceil_mode that adds a window beyond the padding cannot be combined with "
                                 "count_include_pad");
    return w;
}

namespace {

LayerSpec window_pool(const std::string& type, const std::string& help) {
    LayerSpec s;
    s.type = type;
    s.category = "Pooling";
    s.help = help;
    s.params = {
        {.name = "pool_size", .kind = ParamKind::IntList, .def = IntList{2, 2}, .min = 1, .max = 64,
         .help = "window height and width (one number: square)", .list_size = 2},
        {.name = "strides", .kind = ParamKind::IntList, .def = IntList{}, .min = 1, .max = 64,
         .help = "step of the window; empty: the pool size"},
        {.name = "padding", .kind = ParamKind::Choice, .def = std::string("valid"),
         .choices = {"valid", "same", "explicit"},
         .help = "'valid': no padding; 'same': pad so that output = ceil(input / stride); 'explicit': "
                 "explicit_padding"},
        {.name = "explicit_padding", .kind = ParamKind::IntList, .def = IntList{}, .min = 0, .max = 63,
         .help = "top, bottom, left, right, with padding 'explicit' (as ONNX and PyTorch pad)"},
        {.name = "ceil_mode", .kind = ParamKind::Bool, .def = false,
         .help = "round the output size up, so a last partial window is pooled too (ONNX, PyTorch ceil_mode)"},
    };
    if (type == "AveragePooling2D")
        s.params.push_back({.name = "count_include_pad", .kind = ParamKind::Bool, .def = false,
                            .help = "divide by the whole window, padding included (ONNX, PyTorch); else by the "
                                    "values inside the image (Keras)"});
    s.infer = [type](const Params& p, const std::vector<Shape>& in) {
        Window2D w = pool_window(in[0], p, type);
        LayerInfo info;
        info.output = Shape{w.out[0], w.out[1], in[0][2]};
        info.flops = mul_sizes({info.output.elements(), w.kernel[0], w.kernel[1]});
        return info;
    };
    return s;
}

LayerSpec global_pool(const std::string& type, const std::string& help) {
    LayerSpec s;
    s.type = type;
    s.category = "Pooling";
    s.help = help;
    s.infer = [type](const Params&, const std::vector<Shape>& in) {
        require_image(in[0], type);
        LayerInfo info;
        info.output = Shape{in[0][2]};
        info.flops = in[0].elements();
        return info;
    };
    return s;
}

}  // namespace

void register_pooling(LayerRegistry& r) {
    r.add(window_pool("MaxPool2D", "Keeps the largest value of each window, per channel."));
    r.add(window_pool("AveragePooling2D", "Averages each window, per channel (padding counted only with count_include_pad)."));
    r.add(global_pool("GlobalAveragePooling2D", "Averages each channel over the whole image."));
    r.add(global_pool("GlobalMaxPooling2D", "Keeps each channel's largest value over the whole image."));
}

}  // namespace lf
