// Conv, ConvTranspose, Gemm, MatMul(+Add) and BatchNormalization: the layers with weights,
// their kernels moved from ONNX's layouts to Keras' (Conv2D (kh, kw, in, out), DepthwiseConv2D
// (kh, kw, in, multiplier), Conv2DTranspose (kh, kw, out, in), Dense (in, units)).
#include "import/onnx_convert.h"
#include "import/onnx_fold.h"
#include "layerforge/store/weights_file.h"  // dims_text
#include "layers/window.h"

namespace lf::onnx_import {

namespace {

struct ConvAttrs {
    IntList kernel, strides, dilations, pads;  // pads: top, left, bottom, right as ONNX orders them
    std::string auto_pad;
};

ConvAttrs conv_attrs(const onnx::NodeProto& n, std::int64_t kh, std::int64_t kw) {
    ConvAttrs a;
    a.kernel = {kh, kw};
    a.strides = ints_attribute(n, "strides", {1, 1});
    a.dilations = ints_attribute(n, "dilations", {1, 1});
    a.pads = ints_attribute(n, "pads", {0, 0, 0, 0});
    a.auto_pad = string_attribute(n, "auto_pad", "NOTSET");
    if (a.strides.size() != 2 || a.dilations.size() != 2 || a.pads.size() != 4)
        throw Unsupported{"only 2-D windows (2 strides, 2 dilations, 4 pads)"};
    for (std::int64_t p : a.pads)
        if (p < 0) throw Unsupported{"negative pads"};
    return a;
}

// TensorFlow's 'same' pads of this window, as ONNX orders them.
IntList same_pads(const Shape& in, const ConvAttrs& a) {
    const Window2D w = conv_window(in, a.kernel, a.strides, a.dilations, "same", "Conv");
    return {w.pad_l[0], w.pad_l[1], w.pad_r[0], w.pad_r[1]};
}

}  // namespace

void Converter::conv(const onnx::NodeProto& n) {
    const std::string in = image_node(n, tensor_input(n, 0));
    const ConstTensor& w = constant_input(n, 1, "the kernel");
    const ConstTensor* b = optional_constant(n, 2, "the bias");
    if (w.dims.size() != 4) throw Unsupported{"only 2-D convolutions; the kernel is " + dims_text(w.dims)};
    const Shape& s = shapes_.at(in);
    const std::int64_t O = w.dims[0], I = w.dims[1], kh = w.dims[2], kw = w.dims[3], C = s[2];
    const std::int64_t group = int_attribute(n, "group", 1);
    const bool depthwise = group > 1 && group == C && I == 1;
    if (group != 1 && !depthwise)
        throw Unsupported{"a grouped convolution (group " + std::to_string(group) + " of " + std::to_string(C) +
                          " channels); Layerforge has groups of 1 (Conv2D) or one per channel (DepthwiseConv2D)"};
    if (!depthwise && I != C)
        throw Unsupported{"the kernel reads " + std::to_string(I) + " channels, the input has " + std::to_string(C)};
    if (depthwise && O % C != 0) throw Unsupported{"a depthwise kernel whose outputs are not a multiple of the channels"};
    ConvAttrs a = conv_attrs(n, kh, kw);
    std::string padding = "valid", source = in;
    if (a.auto_pad == "SAME_UPPER") padding = "same";
    else if (a.auto_pad == "SAME_LOWER") {
        const IntList p = same_pads(s, a);  // the odd extra row goes first
        a.pads = {p[2], p[3], p[0], p[1]};
    } else if (a.auto_pad != "NOTSET" && a.auto_pad != "VALID") throw Unsupported{"auto_pad " + a.auto_pad};
    if (a.auto_pad == "NOTSET" || a.auto_pad == "SAME_LOWER") {
        const bool zero = a.pads == IntList{0, 0, 0, 0};
        if (!zero && a.pads == same_pads(s, a)) {
            padding = "same";
        } else if (!zero) {
            const IntList tblr{a.pads[0], a.pads[2], a.pads[1], a.pads[3]};
            source = add_layer(n, "ZeroPadding2D", {{"padding", tblr}}, {in}, ".pad");
            note("Conv with pads " + dims_text(a.pads) + " -> ZeroPadding2D + " +
                 (depthwise ? "DepthwiseConv2D" : "Conv2D") + " 'valid'");
        }
    }
    const std::int64_t mult = depthwise ? O / C : 1;
    Params p{{"kernel_size", IntList{kh, kw}}, {"strides", a.strides}, {"dilation_rate", a.dilations},
             {"padding", padding}, {"use_bias", b != nullptr}};
    if (depthwise) p["depth_multiplier"] = mult;
    else p["filters"] = O;
    const std::string id = add_layer(n, depthwise ? "DepthwiseConv2D" : "Conv2D", std::move(p), {source});
    // ONNX (O, I, kh, kw) -> Keras (kh, kw, I, O); depthwise (C * m, 1, kh, kw) -> (kh, kw, C, m).
    const std::int64_t ci = depthwise ? C : I, co = depthwise ? mult : O;
    std::vector<float> k(w.floats.size());
    for (std::int64_t o = 0; o < O; ++o)
        for (std::int64_t i = 0; i < I; ++i)
            for (std::int64_t y = 0; y < kh; ++y)
                for (std::int64_t x = 0; x < kw; ++x) {
                    const std::int64_t c = depthwise ? o / mult : i, j = depthwise ? o % mult : o;
                    k[std::size_t(((y * kw + x) * ci + c) * co + j)] = w.floats[std::size_t(((o * I + i) * kh + y) * kw + x)];
                }
    add_weight(id, depthwise ? "depthwise_kernel" : "kernel", {kh, kw, ci, co}, std::move(k));
    if (b) add_weight(id, "bias", {O}, b->floats), has_conv_bias_ = true;
    note(depthwise ? "Conv (one group per channel) -> DepthwiseConv2D" : "Conv -> Conv2D");
    set_output(n, layer_value(id, Value::Kind::Image));
}

void Converter::conv_transpose(const onnx::NodeProto& n) {
    const std::string in = image_node(n, tensor_input(n, 0));
    const ConstTensor& w = constant_input(n, 1, "the kernel");
    const ConstTensor* b = optional_constant(n, 2, "the bias");
    if (w.dims.size() != 4) throw Unsupported{"only 2-D transposed convolutions"};
    if (int_attribute(n, "group", 1) != 1) throw Unsupported{"a grouped transposed convolution"};
    if (find_attribute(n, "output_shape")) throw Unsupported{"output_shape (give pads and output_padding instead)"};
    const std::int64_t I = w.dims[0], O = w.dims[1], kh = w.dims[2], kw = w.dims[3];
    if (I != shapes_.at(in)[2]) throw Unsupported{"the kernel reads " + std::to_string(I) + " channels"};
    const ConvAttrs a = conv_attrs(n, kh, kw);
    const IntList out_pad = ints_attribute(n, "output_padding", {0, 0});
    if (a.auto_pad != "NOTSET") throw Unsupported{"auto_pad " + a.auto_pad};
    // Conv2DTranspose crops like Keras: nothing ('valid'), or span / 2 on each side ('same').
    std::string padding;
    const IntList half{((kh - 1) * a.dilations[0] + 1) / 2, ((kw - 1) * a.dilations[1] + 1) / 2};
    if (a.pads == IntList{0, 0, 0, 0}) padding = "valid";
    else if (a.pads == IntList{half[0], half[1], half[0], half[1]} && out_pad == IntList{0, 0}) padding = "same";
    else throw Unsupported{"pads " + dims_text(a.pads) + " that Conv2DTranspose cannot crop ('valid': none, 'same': " +
                           dims_text(half) + " on each side without output_padding)"};
    const std::string id = add_layer(n, "Conv2DTranspose",
                                     {{"filters", O}, {"kernel_size", IntList{kh, kw}}, {"strides", a.strides},
                                      {"dilation_rate", a.dilations}, {"padding", padding}, {"output_padding", out_pad},
                                      {"use_bias", b != nullptr}},
                                     {in});
    std::vector<float> k(w.floats.size());  // (I, O, kh, kw) -> (kh, kw, O, I)
    for (std::int64_t i = 0; i < I; ++i)
        for (std::int64_t o = 0; o < O; ++o)
            for (std::int64_t y = 0; y < kh; ++y)
                for (std::int64_t x = 0; x < kw; ++x)
                    k[std::size_t(((y * kw + x) * O + o) * I + i)] = w.floats[std::size_t(((i * O + o) * kh + y) * kw + x)];
    add_weight(id, "kernel", {kh, kw, O, I}, std::move(k));
    if (b) add_weight(id, "bias", {O}, b->floats);
    note("ConvTranspose -> Conv2DTranspose");
    set_output(n, layer_value(id, Value::Kind::Image));
}

void Converter::dense(const onnx::NodeProto& n, const Value& in, std::vector<float> kernel, std::int64_t units,
                      const std::vector<float>* bias, const std::string& from) {
    if (in.kind != Value::Kind::Vector) throw Unsupported{"needs a (N, K) input; flatten the image first"};
    const std::int64_t K = std::int64_t(kernel.size()) / units;
    if (in.shape[0] != K) throw Unsupported{"the weights expect " + std::to_string(K) + " inputs, got " + std::to_string(in.shape[0])};
    if (in.flattened_from.rank() == 3) {
        // Row j of the ONNX kernel reads the channels-first index (c, h, w); the engine's
        // channels-last Flatten puts that value at (h, w, c).
        const std::int64_t H = in.flattened_from[0], W = in.flattened_from[1], C = in.flattened_from[2];
        std::vector<float> permuted(kernel.size());
        for (std::int64_t c = 0; c < C; ++c)
            for (std::int64_t h = 0; h < H; ++h)
                for (std::int64_t x = 0; x < W; ++x) {
                    const std::int64_t j = (c * H + h) * W + x, e = (h * W + x) * C + c;
                    std::copy_n(kernel.begin() + j * units, units, permuted.begin() + e * units);
                }
        kernel = std::move(permuted);
        note(from + " after Flatten of a (C, H, W) image -> Dense with its kernel rows in channels-last order");
    }
    const std::string id = add_layer(n, "Dense", {{"units", units}, {"use_bias", bias != nullptr}}, {in.node});
    add_weight(id, "kernel", {K, units}, std::move(kernel));
    if (bias) add_weight(id, "bias", {units}, *bias);
    note(from + " -> Dense");
    set_output(n, layer_value(id, Value::Kind::Vector));
}

void Converter::gemm(const onnx::NodeProto& n) {
    const Value& a = tensor_input(n, 0);
    const ConstTensor& B = constant_input(n, 1, "the weight matrix B");
    const ConstTensor* C = optional_constant(n, 2, "the bias C");
    if (int_attribute(n, "transA", 0) != 0) throw Unsupported{"transA = 1"};
    if (B.dims.size() != 2) throw Unsupported{"B must be a matrix"};
    const bool transB = int_attribute(n, "transB", 0) != 0;
    const float alpha = float_attribute(n, "alpha", 1.f), beta = float_attribute(n, "beta", 1.f);
    const std::int64_t K = transB ? B.dims[1] : B.dims[0], units = transB ? B.dims[0] : B.dims[1];
    std::vector<float> kernel(B.floats.size());
    for (std::int64_t k = 0; k < K; ++k)
        for (std::int64_t u = 0; u < units; ++u)
            kernel[std::size_t(k * units + u)] = alpha * B.floats[std::size_t(transB ? u * K + k : k * units + u)];
    std::vector<float> bias;
    if (C) {
        if (C->size() != std::size_t(units) && C->size() != 1) throw Unsupported{"a bias C that is not one value per unit"};
        for (std::int64_t u = 0; u < units; ++u) bias.push_back(beta * float(C->at(C->size() == 1 ? 0 : std::size_t(u))));
    }
    dense(n, a, std::move(kernel), units, C ? &bias : nullptr, "Gemm");
}

void Converter::matmul(const onnx::NodeProto& n) {
    const Value& a = tensor_input(n, 0);
    const ConstTensor& B = constant_input(n, 1, "the weight matrix");
    if (B.dims.size() != 2) throw Unsupported{"only a (N, K) x (K, units) product with constant weights"};
    const std::int64_t units = B.dims[1];
    // MatMul then Add of a constant row: one Dense with a bias.
    const auto& users = consumers(n.output(0));
    const ConstTensor* bias_of_add = nullptr;
    if (users.size() == 1 && graph_.node(int(users[0])).op_type() == "Add") {
        const auto& add = graph_.node(int(users[0]));
        const std::string& other = add.input(0) == n.output(0) ? add.input(1) : add.input(0);
        auto it = values_.find(other);
        if (it != values_.end() && it->second.kind == Value::Kind::Constant && it->second.constant.size() == std::size_t(units))
            bias_of_add = &it->second.constant;
    }
    if (!bias_of_add) return dense(n, a, B.floats, units, nullptr, "MatMul");
    const auto& add = graph_.node(int(users[0]));
    dense(n, a, B.floats, units, &bias_of_add->floats, "MatMul+Add");
    absorbed_.insert(users[0]);
    values_[add.output(0)] = values_.at(n.output(0));
}

void Converter::batch_norm(const onnx::NodeProto& n) {
    const Value& x = tensor_input(n, 0);
    for (int o = 1; o < n.output_size(); ++o)
        if (!n.output(o).empty() && !consumers(n.output(o)).empty())
            throw Unsupported{"its running-statistics outputs are used (a training-mode graph)"};
    const char* roles[] = {"gamma", "beta", "moving_mean", "moving_variance"};
    const char* what[] = {"the scale", "the bias", "the mean", "the variance"};
    const std::int64_t c = x.shape.dims.back();
    std::vector<const ConstTensor*> w;
    for (int i = 0; i < 4; ++i) {
        w.push_back(&constant_input(n, i + 1, what[i]));
        if (w.back()->size() != std::size_t(c))
            throw Unsupported{std::string(what[i]) + " has " + std::to_string(w.back()->size()) + " values for " +
                              std::to_string(c) + " channels"};
    }
    const std::string id = add_layer(n, "BatchNormalization",
                                     {{"epsilon", double(float_attribute(n, "epsilon", 1e-5f))},
                                      {"momentum", double(float_attribute(n, "momentum", 0.9f))}},
                                     {x.kind == Value::Kind::Vector ? x.node : image_node(n, x)});
    for (int i = 0; i < 4; ++i) add_weight(id, roles[i], {c}, w[std::size_t(i)]->floats);
    has_batch_norm_ = true;
    note("BatchNormalization -> BatchNormalization (scale, bias and running statistics kept)");
    Value v = layer_value(id, x.kind == Value::Kind::Vector ? Value::Kind::Vector : Value::Kind::Image);
    v.squeezed = x.squeezed;
    set_output(n, v);
}

}  // namespace lf::onnx_import
