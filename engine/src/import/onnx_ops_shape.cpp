// Pooling, Flatten, Reshape, (Un)Squeeze, Transpose, Pad, Dropout and Shape: ops that move data
// around. Layerforge keeps images channels last, so most of these only change what an ONNX
// tensor is on our side (an (N, C, 1, 1) pooled tensor is the engine's vector, for one) and
// add a layer only where the data really moves.
#include <set>

#include "import/onnx_convert.h"
#include "import/onnx_fold.h"
#include "layerforge/store/weights_file.h"  // dims_text

namespace lf::onnx_import {

namespace {

// Axes of a rank-4 tensor as 0..3.
std::set<std::int64_t> axes_set(const std::vector<std::int64_t>& axes) {
    std::set<std::int64_t> s;
    for (std::int64_t a : axes) s.insert(a < 0 ? a + 4 : a);
    return s;
}

const std::set<std::int64_t> kSpatial{2, 3};

}  // namespace

void Converter::pool(const onnx::NodeProto& n) {
    const std::string in = image_node(n, tensor_input(n, 0));
    const bool max = n.op_type() == "MaxPool";
    if (n.output_size() > 1 && !n.output(1).empty() && !consumers(n.output(1)).empty())
        throw Unsupported{"its Indices output is used"};
    const IntList kernel = ints_attribute(n, "kernel_shape");
    const IntList strides = ints_attribute(n, "strides", {1, 1});
    const IntList pads = ints_attribute(n, "pads", {0, 0, 0, 0});
    if (kernel.size() != 2 || strides.size() != 2 || pads.size() != 4) throw Unsupported{"only 2-D pooling"};
    if (ints_attribute(n, "dilations", {1, 1}) != IntList{1, 1}) throw Unsupported{"dilated pooling"};
    const std::string auto_pad = string_attribute(n, "auto_pad", "NOTSET");
    const bool ceil_mode = int_attribute(n, "ceil_mode", 0) != 0;
    Params p{{"pool_size", kernel}, {"strides", strides}, {"ceil_mode", ceil_mode}};
    if (!max) p["count_include_pad"] = int_attribute(n, "count_include_pad", 0) != 0;
    std::string how;
    if (auto_pad == "SAME_UPPER") {
        p["padding"] = std::string("same");
        how = " 'same'";
    } else if (auto_pad == "NOTSET" || auto_pad == "VALID") {
        const bool padded = auto_pad == "NOTSET" && pads != IntList{0, 0, 0, 0};
        p["padding"] = std::string(padded || ceil_mode ? "explicit" : "valid");
        if (padded || ceil_mode) {
            p["explicit_padding"] = padded ? IntList{pads[0], pads[2], pads[1], pads[3]} : IntList{0, 0, 0, 0};
            how = std::string(" with") + (padded ? " pads" : "") + (padded && ceil_mode ? " and" : "") +
                  (ceil_mode ? " ceil_mode" : "");
        }
    } else {
        throw Unsupported{"auto_pad " + auto_pad};
    }
    const std::string type = max ? "MaxPool2D" : "AveragePooling2D";
    const std::string id = add_layer(n, type, std::move(p), {in});
    note(n.op_type() + how + " -> " + type + (how.empty() || how == " 'same'" ? how : " padding 'explicit'" + how));
    set_output(n, layer_value(id, Value::Kind::Image));
}

void Converter::global_pool(const onnx::NodeProto& n) {
    const std::string in = image_node(n, tensor_input(n, 0));
    const std::string type = n.op_type() == "GlobalMaxPool" ? "GlobalMaxPooling2D" : "GlobalAveragePooling2D";
    Value v = layer_value(add_layer(n, type, {}, {in}), Value::Kind::Vector);
    v.squeezed = true;
    note(n.op_type() + " -> " + type);
    set_output(n, v);
}

void Converter::reduce_mean(const onnx::NodeProto& n) {
    const Value& x = tensor_input(n, 0);
    const auto axes = axes_set(ints_attribute(n, "axes"));
    if (x.kind != Value::Kind::Image || axes != kSpatial)
        throw Unsupported{"ReduceMean over axes other than the image's height and width (2, 3)"};
    const bool keep = int_attribute(n, "keepdims", 1) != 0;
    Value v = layer_value(add_layer(n, "GlobalAveragePooling2D", {}, {x.node}), Value::Kind::Vector);
    v.squeezed = keep;
    note("ReduceMean over (H, W) -> GlobalAveragePooling2D");
    set_output(n, v);
}


void Converter::flatten(const onnx::NodeProto& n) {
    const Value& x = tensor_input(n, 0);
    if (int_attribute(n, "axis", 1) != 1) throw Unsupported{"Flatten at an axis other than 1"};
    if (x.kind == Value::Kind::Vector) {
        Value v = x;
        v.squeezed = false;
        note("Flatten of (N, C, 1, 1) -> (nothing: already flat)");
        return set_output(n, v);
    }
    Value v = layer_value(add_layer(n, "Flatten", {}, {x.node}), Value::Kind::Vector);
    if (x.shape[0] * x.shape[1] > 1) v.flattened_from = x.shape;
    note("Flatten -> Flatten");
    set_output(n, v);
}

void Converter::reshape(const onnx::NodeProto& n) {
    const Value& x = tensor_input(n, 0);
    std::vector<std::int64_t> target = constant_input(n, 1, "the target shape").ints;
    const std::vector<std::int64_t> in = onnx_dims(x);
    std::int64_t per_sample = 1, known = 1, unknown = -1;
    for (std::size_t i = 1; i < in.size(); ++i) per_sample *= in[i];
    for (std::size_t i = 0; i < target.size(); ++i) {
        if (target[i] == 0 && i < in.size()) target[i] = in[i];
        if (i == 0) continue;
        if (target[i] == -1) unknown = std::int64_t(i);
        else known *= target[i];
    }
    if (target.empty() || (target[0] != in[0] && target[0] != -1) || (target[0] == -1 && unknown >= 0))
        throw Unsupported{"a Reshape that changes the batch dimension (to " + dims_text(target) + ")"};
    if (unknown >= 0 && known > 0) target[std::size_t(unknown)] = per_sample / known;
    target[0] = in[0];
    const std::string to = dims_text(target);
    if (target.size() == 2 && target[1] == per_sample) {
        if (x.kind == Value::Kind::Vector) {
            Value v = x;
            v.squeezed = false;
            return set_output(n, v);
        }
        return flatten(n);
    }
    if (target.size() == 4 && x.kind == Value::Kind::Vector && target[2] == 1 && target[3] == 1 && target[1] == per_sample) {
        Value v = x;
        v.squeezed = true;
        return set_output(n, v);
    }
    if (target == in) return set_output(n, x);
    throw Unsupported{"a Reshape from " + dims_text(in) + " to " + to + "; Layerforge imports reshapes that flatten"};
}

void Converter::squeeze_axes(const onnx::NodeProto& n, bool unsqueeze) {
    const Value& x = tensor_input(n, 0);
    std::vector<std::int64_t> axes = ints_attribute(n, "axes");
    if (const ConstTensor* c = optional_constant(n, 1, "the axes")) axes = c->ints;
    const bool spatial = axes_set(axes) == kSpatial;
    Value v = x;
    if (!unsqueeze && spatial && x.kind == Value::Kind::Vector && x.squeezed) v.squeezed = false;
    else if (unsqueeze && spatial && x.kind == Value::Kind::Vector && !x.squeezed && x.flattened_from.rank() == 0) v.squeezed = true;
    else if (!unsqueeze && spatial && x.kind == Value::Kind::Image && x.shape[0] == 1 && x.shape[1] == 1)
        v = layer_value(add_layer(n, "Flatten", {}, {x.node}), Value::Kind::Vector);
    else
        throw Unsupported{std::string(unsqueeze ? "Unsqueeze" : "Squeeze") + " of axes " + dims_text(axes) +
                          "; Layerforge imports those between (N, C) and (N, C, 1, 1)"};
    set_output(n, v);
}

void Converter::transpose(const onnx::NodeProto& n) {
    const Value& x = tensor_input(n, 0);
    const std::vector<std::int64_t> perm = ints_attribute(n, "perm");
    Value v = x;
    if (x.kind == Value::Kind::Nhwc && perm == std::vector<std::int64_t>{0, 3, 1, 2}) v.kind = Value::Kind::Image;
    else if (x.kind == Value::Kind::Image && perm == std::vector<std::int64_t>{0, 2, 3, 1}) v.kind = Value::Kind::Nhwc;
    else
        throw Unsupported{"Transpose " + dims_text(perm) + "; Layerforge imports those between (N, H, W, C) and (N, C, H, W)"};
    note("Transpose " + dims_text(perm) + " at the layout edge -> (nothing: Layerforge is channels last)");
    set_output(n, v);
}

void Converter::pad(const onnx::NodeProto& n) {
    const Value& x = tensor_input(n, 0);
    if (string_attribute(n, "mode", "constant") != "constant") throw Unsupported{"Pad in a mode other than constant"};
    std::vector<std::int64_t> pads = ints_attribute(n, "pads");
    double value = float_attribute(n, "value", 0.f);
    if (const ConstTensor* c = optional_constant(n, 1, "the pads")) pads = c->ints;
    if (const ConstTensor* c = optional_constant(n, 2, "the padding value"); c && c->size() > 0) value = c->at(0);
    if (x.kind != Value::Kind::Image || pads.size() != 8) throw Unsupported{"Pad of a tensor that is not an image"};
    if (pads[0] || pads[1] || pads[4] || pads[5]) throw Unsupported{"Pad of the batch or channel axis"};
    for (std::int64_t p : pads)
        if (p < 0) throw Unsupported{"negative pads (cropping)"};
    if (value != 0) throw Unsupported{"Pad with " + number_text(value) + "; Layerforge pads with zeros"};
    if (pads == std::vector<std::int64_t>(8, 0)) {
        note("Pad of nothing -> (removed)");
        return set_output(n, x);
    }
    const std::string id = add_layer(n, "ZeroPadding2D", {{"padding", IntList{pads[2], pads[6], pads[3], pads[7]}}}, {x.node});
    note("Pad (zeros) -> ZeroPadding2D");
    set_output(n, layer_value(id, Value::Kind::Image));
}

void Converter::dropout(const onnx::NodeProto& n) {
    const Value& x = tensor_input(n, 0);
    if (n.output_size() > 1 && !n.output(1).empty() && !consumers(n.output(1)).empty())
        throw Unsupported{"its mask output is used"};
    double rate = float_attribute(n, "ratio", 0.5f);
    if (const ConstTensor* c = optional_constant(n, 1, "the ratio"); c && c->size() > 0) rate = c->at(0);
    const std::string id = add_layer(n, "Dropout", {{"rate", std::min(rate, 0.99)}}, {x.node});
    note("Dropout -> Dropout (the identity at inference)");
    Value v = layer_value(id, x.kind);
    v.squeezed = x.squeezed;
    v.flattened_from = x.flattened_from;
    set_output(n, v);
}

void Converter::shape(const onnx::NodeProto& n) {
    const Value& x = tensor_input(n, 0);
    std::vector<std::int64_t> dims = onnx_dims(x);
    if (dims[0] < 0) throw Unsupported{"the Shape of a tensor whose batch size is not fixed (export with a fixed batch)"};
    const auto rank = std::int64_t(dims.size());
    auto clamp = [&](std::int64_t v) { return std::clamp<std::int64_t>(v < 0 ? v + rank : v, 0, rank); };
    const std::int64_t begin = clamp(int_attribute(n, "start", 0)), end = clamp(int_attribute(n, "end", rank));
    Value v;
    v.constant.integer = true;
    v.constant.ints.assign(dims.begin() + begin, dims.begin() + std::max(begin, end));
    v.constant.dims = {std::int64_t(v.constant.ints.size())};
    ++folded_;
    set_output(n, v);
}

}  // namespace lf::onnx_import
