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
        {.name = "padding", .kind = ParamKind::Choice, .def = std::string("valid"), .choices = {"valid", "same"},
         .help = "'valid': no padding; 'same': pad so that output = ceil(input / stride)"},
    };
    s.infer = [type](const Params& p, const std::vector<Shape>& in) {
        IntList strides = pool_strides(p);
        if (strides.size() != 2) throw input_error("strides expects 2 integers (or none for the pool size)");
        Window2D w = conv_window(in[0], param_list(p, "pool_size"), strides, {1, 1}, param_str(p, "padding"), type);
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
    r.add(window_pool("AveragePooling2D", "Averages each window, per channel (padding not counted)."));
    r.add(global_pool("GlobalAveragePooling2D", "Averages each channel over the whole image."));
    r.add(global_pool("GlobalMaxPooling2D", "Keeps each channel's largest value over the whole image."));
}

}  // namespace lf
