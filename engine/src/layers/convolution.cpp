// Conv2D, DepthwiseConv2D and Conv2DTranspose over channels-last images, with Keras kernel
// layouts: Conv2D (kh, kw, in, filters), DepthwiseConv2D (kh, kw, in, depth_multiplier),
// Conv2DTranspose (kh, kw, filters, in). CPU forward/backward: backend/cpu/conv_op.cpp.
#include <functional>

#include "layerforge/core/checked.h"
#include "layerforge/core/error.h"
#include "layers/builtin.h"
#include "layers/window.h"

namespace lf {

namespace {

std::vector<ParamSpec> window_params(bool with_filters, bool with_dilation) {
    std::vector<ParamSpec> p;
    if (with_filters)
        p.push_back({.name = "filters", .kind = ParamKind::Int, .def = std::int64_t(32), .min = 1, .max = 1 << 16,
                     .help = "number of output channels", .required = true});
    p.push_back({.name = "kernel_size", .kind = ParamKind::IntList, .def = IntList{3, 3}, .min = 1, .max = 64,
                 .help = "window height and width (one number: square)", .required = true, .list_size = 2});
    p.push_back({.name = "strides", .kind = ParamKind::IntList, .def = IntList{1, 1}, .min = 1, .max = 64,
                 .help = "step of the window", .list_size = 2});
    p.push_back({.name = "padding", .kind = ParamKind::Choice, .def = std::string("valid"), .choices = {"valid", "same"},
                 .help = "'valid': no padding; 'same': pad so that output = ceil(input / stride)"});
    if (with_dilation)
        p.push_back({.name = "dilation_rate", .kind = ParamKind::IntList, .def = IntList{1, 1}, .min = 1, .max = 64,
                     .help = "spacing between kernel taps (atrous convolution)", .list_size = 2});
    return p;
}

void add_tail_params(std::vector<ParamSpec>& p) {
    p.push_back({.name = "activation", .kind = ParamKind::Choice, .def = std::string("linear"),
                 .choices = activation_names(), .help = "activation applied to the output"});
    p.push_back({.name = "use_bias", .kind = ParamKind::Bool, .def = true, .help = "add a learned bias per channel"});
}

void check_strides_dilation(const Params& p) {
    const IntList &s = param_list(p, "strides"), &d = param_list(p, "dilation_rate");
    if ((s[0] > 1 || s[1] > 1) && (d[0] > 1 || d[1] > 1))
        throw input_error("strides > 1 and dilation_rate > 1 cannot be combined (as in Keras)");
}

Window2D window_of(const Params& p, const Shape& in, const std::string& what) {
    return conv_window(in, param_list(p, "kernel_size"), param_list(p, "strides"), param_list(p, "dilation_rate"),
                       param_str(p, "padding"), what);
}

// Output, kernel and optional bias of a convolution-like layer with `channels` outputs.
LayerInfo conv_info(const Params& p, const Window2D& w, std::int64_t channels, const char* kernel_name, Shape kernel,
                    std::int64_t fan_in, std::int64_t fan_out, std::int64_t flops) {
    LayerInfo info;
    info.output = Shape{w.out[0], w.out[1], channels};
    info.weights.push_back({kernel_name, std::move(kernel), Init::GlorotUniform, fan_in, fan_out});
    if (param_bool(p, "use_bias")) info.weights.push_back({"bias", Shape{channels}, Init::Zeros, fan_in, fan_out});
    info.flops = flops;
    return info;
}

LayerSpec conv_spec(const std::string& type, const std::string& help, std::vector<ParamSpec> params,
                    std::function<LayerInfo(const Params&, const Shape&)> infer) {
    LayerSpec s;
    s.type = type;
    s.category = "Convolution";
    s.help = help;
    s.params = std::move(params);
    add_tail_params(s.params);
    s.infer = [infer](const Params& p, const std::vector<Shape>& in) {
        check_strides_dilation(p);
        return infer(p, in[0]);
    };
    return s;
}

LayerSpec conv2d() {
    return conv_spec("Conv2D", "2-D convolution: each output channel is a learned filter slid over the image.",
                     window_params(true, true), [](const Params& p, const Shape& in) {
                         Window2D w = window_of(p, in, "Conv2D");
                         const std::int64_t c = in[2], f = param_int(p, "filters"), kk = w.kernel[0] * w.kernel[1];
                         return conv_info(p, w, f, "kernel", Shape{w.kernel[0], w.kernel[1], c, f}, kk * c, kk * f,
                                          mul_sizes({2, w.out[0], w.out[1], f, kk, c}));
                     });
}

LayerSpec depthwise_conv2d() {
    std::vector<ParamSpec> params = window_params(false, true);
    params.push_back({.name = "depth_multiplier", .kind = ParamKind::Int, .def = std::int64_t(1), .min = 1, .max = 256,
                      .help = "output channels per input channel"});
    return conv_spec("DepthwiseConv2D",
                     "Depthwise 2-D convolution: each input channel is filtered on its own (MobileNet blocks).",
                     std::move(params), [](const Params& p, const Shape& in) {
                         Window2D w = window_of(p, in, "DepthwiseConv2D");
                         const std::int64_t c = in[2], m = param_int(p, "depth_multiplier");
                         const std::int64_t kk = w.kernel[0] * w.kernel[1];
                         return conv_info(p, w, mul_size(c, m), "depthwise_kernel", Shape{w.kernel[0], w.kernel[1], c, m},
                                          kk * c, kk * m, mul_sizes({2, w.out[0], w.out[1], c, m, kk}));
                     });
}

LayerSpec conv2d_transpose() {
    std::vector<ParamSpec> params = window_params(true, true);
    params.push_back({.name = "output_padding", .kind = ParamKind::IntList, .def = IntList{}, .min = 0, .max = 63,
                      .help = "extra rows and columns at the bottom/right, each below the stride; empty: Keras' None"});
    return conv_spec("Conv2DTranspose", "Transposed 2-D convolution (learned upsampling): the gradient of a Conv2D.",
                     std::move(params), [](const Params& p, const Shape& in) {
                         Window2D w = transposed_window(in, p);
                         const std::int64_t c = in[2], f = param_int(p, "filters"), kk = w.kernel[0] * w.kernel[1];
                         // Keras counts fans of the (kh, kw, filters, in) kernel as for a Conv2D kernel.
                         return conv_info(p, w, f, "kernel", Shape{w.kernel[0], w.kernel[1], f, c}, kk * f, kk * c,
                                          mul_sizes({2, in[0], in[1], c, kk, f}));
                     });
}

}  // namespace

void register_convolution(LayerRegistry& r) {
    r.add(conv2d());
    r.add(depthwise_conv2d());
    r.add(conv2d_transpose());
}

}  // namespace lf
