// Conv2D, DepthwiseConv2D and Conv2DTranspose over channels-last images, with Keras kernel
// layouts: Conv2D (kh, kw, in, filters), DepthwiseConv2D (kh, kw, in, depth_multiplier),
// Conv2DTranspose (kh, kw, filters, in). CPU forward/backward: backend/cpu/conv_op.cpp.
#include "backend/cpu/ops.h"
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

LayerSpec conv2d() {
    LayerSpec s;
    s.type = "Conv2D";
    s.category = "Convolution";
    s.help = "2-D convolution: each output channel is a learned filter slid over the image.";
    s.params = window_params(true, true);
    add_tail_params(s.params);
    s.infer = [](const Params& p, const std::vector<Shape>& in) {
        check_strides_dilation(p);
        Window2D w = window_of(p, in[0], "Conv2D");
        const std::int64_t c = in[0][2], f = param_int(p, "filters"), kk = w.kernel[0] * w.kernel[1];
        LayerInfo info;
        info.output = Shape{w.out[0], w.out[1], f};
        info.weights.push_back({"kernel", Shape{w.kernel[0], w.kernel[1], c, f}, Init::GlorotUniform, kk * c, kk * f});
        if (param_bool(p, "use_bias")) info.weights.push_back({"bias", Shape{f}, Init::Zeros, kk * c, kk * f});
        info.flops = 2 * w.out[0] * w.out[1] * f * kk * c;
        return info;
    };
    s.make_cpu = make_conv_op;
    return s;
}

LayerSpec depthwise_conv2d() {
    LayerSpec s;
    s.type = "DepthwiseConv2D";
    s.category = "Convolution";
    s.help = "Depthwise 2-D convolution: each input channel is filtered on its own (MobileNet blocks).";
    s.params = window_params(false, true);
    s.params.push_back({.name = "depth_multiplier", .kind = ParamKind::Int, .def = std::int64_t(1), .min = 1, .max = 256,
                        .help = "output channels per input channel"});
    add_tail_params(s.params);
    s.infer = [](const Params& p, const std::vector<Shape>& in) {
        check_strides_dilation(p);
        Window2D w = window_of(p, in[0], "DepthwiseConv2D");
        const std::int64_t c = in[0][2], m = param_int(p, "depth_multiplier"), kk = w.kernel[0] * w.kernel[1];
        LayerInfo info;
        info.output = Shape{w.out[0], w.out[1], c * m};
        info.weights.push_back({"depthwise_kernel", Shape{w.kernel[0], w.kernel[1], c, m}, Init::GlorotUniform, kk * c,
                                kk * m});
        if (param_bool(p, "use_bias")) info.weights.push_back({"bias", Shape{c * m}, Init::Zeros, kk, kk * m});
        info.flops = 2 * w.out[0] * w.out[1] * c * m * kk;
        return info;
    };
    s.make_cpu = make_conv_op;
    return s;
}

LayerSpec conv2d_transpose() {
    LayerSpec s;
    s.type = "Conv2DTranspose";
    s.category = "Convolution";
    s.help = "Transposed 2-D convolution (learned upsampling): the gradient of a Conv2D.";
    s.params = window_params(true, true);
    add_tail_params(s.params);
    s.infer = [](const Params& p, const std::vector<Shape>& in) {
        check_strides_dilation(p);
        Window2D w = transposed_window(in[0], param_list(p, "kernel_size"), param_list(p, "strides"),
                                       param_list(p, "dilation_rate"), param_str(p, "padding"));
        const std::int64_t c = in[0][2], f = param_int(p, "filters"), kk = w.kernel[0] * w.kernel[1];
        LayerInfo info;
        info.output = Shape{w.out[0], w.out[1], f};
        // Keras counts fans of a (kh, kw, filters, in) kernel as if it were a Conv2D kernel.
        info.weights.push_back({"kernel", Shape{w.kernel[0], w.kernel[1], f, c}, Init::GlorotUniform, kk * f, kk * c});
        if (param_bool(p, "use_bias")) info.weights.push_back({"bias", Shape{f}, Init::Zeros, kk * f, kk * c});
        info.flops = 2 * in[0][0] * in[0][1] * c * kk * f;
        return info;
    };
    s.make_cpu = make_conv_op;
    return s;
}

}  // namespace

void register_convolution(LayerRegistry& r) {
    r.add(conv2d());
    r.add(depthwise_conv2d());
    r.add(conv2d_transpose());
}

}  // namespace lf
