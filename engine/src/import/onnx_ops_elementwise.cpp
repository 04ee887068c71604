// Activations, Clip, Softmax and the merges (Mul, Add, Concat): shape-preserving ops, mapped to
// the Keras layers of the same meaning; x * Sigmoid(x) becomes one swish activation.
#include <cmath>
#include <limits>

#include "import/onnx_convert.h"
#include "import/onnx_fold.h"

namespace lf::onnx_import {

namespace {

// An activation's output: the same kind of value as its input.
Value like(const Value& in, Value out) {
    out.kind = in.kind;
    out.squeezed = in.squeezed;
    out.flattened_from = in.flattened_from;
    return out;
}

int opset_of(const onnx::ModelProto& m) {
    for (const auto& o : m.opset_import())
        if (o.domain().empty() || o.domain() == "ai.onnx") return int(o.version());
    return 1;
}

}  // namespace

void Converter::activation(const onnx::NodeProto& n) {
    const Value& x = tensor_input(n, 0);
    const std::string& op = n.op_type();
    Params p;
    std::string type = op == "Relu" ? "ReLU" : op;
    if (op == "LeakyRelu") {
        type = "LeakyReLU";
        p["alpha"] = double(float_attribute(n, "alpha", 0.01f));
    }
    const std::string id = add_layer(n, type, std::move(p), {x.node});
    note(op + " -> " + type);
    set_output(n, like(x, layer_value(id, x.kind)));
}

bool is_hard_sigmoid_of_relu6(const onnx::NodeProto& n) {
    return std::abs(float_attribute(n, "alpha", 0.2f) - 1.f / 6.f) < 1e-6f && float_attribute(n, "beta", 0.5f) == 0.5f;
}

// HardSigmoid as PyTorch writes it, relu6(x + 3) / 6 (ONNX's default slope 0.2 is Keras 2's), and HardSwish.
void Converter::hard_activation(const onnx::NodeProto& n) {
    const Value& x = tensor_input(n, 0);
    const bool swish = n.op_type() == "HardSwish";
    if (!swish && !is_hard_sigmoid_of_relu6(n))
        throw Unsupported{"HardSigmoid(alpha " + number_text(float_attribute(n, "alpha", 0.2f)) + ", beta " +
                          number_text(float_attribute(n, "beta", 0.5f)) +
                          "): Layerforge's hard_sigmoid is relu6(x + 3) / 6 (alpha 1/6, beta 0.5)"};
    const std::string activation = swish ? "hard_swish" : "hard_sigmoid";
    const std::string id = add_layer(n, "Activation", {{"activation", activation}}, {x.node});
    note(n.op_type() + " -> Activation(" + activation + ")");
    set_output(n, like(x, layer_value(id, x.kind)));
}

void Converter::clip(const onnx::NodeProto& n) {
    const Value& x = tensor_input(n, 0);
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    if (find_attribute(n, "min") || find_attribute(n, "max")) {  // opset < 11
        lo = float_attribute(n, "min", -std::numeric_limits<float>::infinity());
        hi = float_attribute(n, "max", std::numeric_limits<float>::infinity());
    } else {
        if (const ConstTensor* c = optional_constant(n, 1, "the lower bound")) lo = c->at(0);
        if (const ConstTensor* c = optional_constant(n, 2, "the upper bound")) hi = c->at(0);
    }
    const std::string bounds = "Clip(" + number_text(lo) + ", " + number_text(hi) + ")";
    if (lo != 0 || hi <= 0)
        throw Unsupported{bounds + ": Layerforge clips as ReLU does, from 0 up to an optional cap"};
    Params p;
    if (std::isfinite(hi)) p["max_value"] = hi;
    const std::string id = add_layer(n, "ReLU", std::move(p), {x.node});
    const onnx::NodeProto* from = producer(n.input(0));
    const std::string target = std::isfinite(hi) ? "ReLU(max_value=" + number_text(hi) + ")" : "ReLU";
    if (from)
        note(from->op_type() + "+" + bounds + " -> " + out_.graph.find(x.node)->type + " + " + target);
    else
        note(bounds + " -> " + target);
    set_output(n, like(x, layer_value(id, x.kind)));
}

void Converter::softmax(const onnx::NodeProto& n) {
    const Value& x = tensor_input(n, 0);
    const int opset = opset_of(model_);
    const std::int64_t axis = int_attribute(n, "axis", opset >= 13 ? -1 : 1);
    const bool channels = x.kind == Value::Kind::Image ? opset >= 13 && (axis == 1 || axis == -3)
                                                       : !x.squeezed && (axis == 1 || axis == -1);
    if (!channels) throw Unsupported{"Softmax along axis " + std::to_string(axis) + "; Layerforge normalises the channels"};
    const std::string id = add_layer(n, "Softmax", {}, {x.node});
    note("Softmax -> Softmax");
    set_output(n, like(x, layer_value(id, x.kind)));
}

void Converter::mul(const onnx::NodeProto& n) {
    if (auto swish = swish_muls_.find(current_); swish != swish_muls_.end()) {
        const std::string& activation = swish->second.activation;
        const Value& x = tensor_input(n, n.input(0) == swish->second.x ? 0 : 1);
        const std::string id = add_layer(n, "Activation", {{"activation", activation}}, {x.node});
        note(activation == "hard_swish" ? "x * HardSigmoid(x) -> Activation(hard_swish)" : "x * Sigmoid(x) -> Activation(swish)");
        return set_output(n, like(x, layer_value(id, x.kind)));
    }
    for (int i = 0; i < 2; ++i) {
        auto it = values_.find(n.input(i));
        if (it != values_.end() && it->second.kind == Value::Kind::Constant)
            throw Unsupported{"a product with a constant; Layerforge multiplies two of the network's tensors"};
    }
    const Value &a = tensor_input(n, 0), &b = tensor_input(n, 1);
    const bool image = a.kind == Value::Kind::Image || b.kind == Value::Kind::Image;
    const std::string ia = image ? image_node(n, a) : a.node, ib = image ? image_node(n, b) : b.node;
    const bool broadcast = shapes_.at(ia) != shapes_.at(ib);
    const std::string id = add_layer(n, "Multiply", {}, {ia, ib});
    note(broadcast ? "Mul of an (N, C, 1, 1) scale and an image (squeeze-and-excitation) -> Multiply" : "Mul -> Multiply");
    Value v = layer_value(id, image ? Value::Kind::Image : Value::Kind::Vector);
    v.squeezed = !image && a.squeezed && b.squeezed;
    set_output(n, v);
}

void Converter::add(const onnx::NodeProto& n) {
    for (int i = 0; i < 2; ++i) {
        auto it = values_.find(n.input(i));
        if (it != values_.end() && it->second.kind == Value::Kind::Constant)
            throw Unsupported{"a sum with a constant (other than a MatMul's bias)"};
    }
    const Value &a = tensor_input(n, 0), &b = tensor_input(n, 1);
    if (a.kind != b.kind || a.squeezed != b.squeezed || a.shape != b.shape)
        throw Unsupported{"a broadcasting sum of " + a.shape.str() + " and " + b.shape.str() +
                          "; Layerforge's Add takes tensors of one shape"};
    const std::string id = add_layer(n, "Add", {}, {a.node, b.node});
    note("Add -> Add");
    Value v = like(a, layer_value(id, a.kind));
    if (a.flattened_from != b.flattened_from) v.flattened_from = Shape{};
    set_output(n, v);
}

void Converter::concat(const onnx::NodeProto& n) {
    const std::int64_t axis = int_attribute(n, "axis", 1);
    std::vector<std::string> inputs;
    const Value& first = tensor_input(n, 0);
    if (n.input_size() == 1) {  // torch.cat of a one-tensor list (DenseNet's first layers)
        note("Concat of one input -> (nothing)");
        return set_output(n, first);
    }
    for (int i = 0; i < n.input_size(); ++i) {
        const Value& v = tensor_input(n, i);
        if (v.kind != first.kind || v.squeezed || v.flattened_from.rank() == 3)
            throw Unsupported{"Concat of tensors of different kinds; Layerforge joins images or flat vectors"};
        inputs.push_back(v.node);
    }
    const bool channels = first.kind == Value::Kind::Image ? axis == 1 || axis == -3 : axis == 1 || axis == -1;
    if (!channels) throw Unsupported{"Concat along axis " + std::to_string(axis) + "; Layerforge joins channels"};
    const std::string id = add_layer(n, "Concatenate", {{"axis", std::int64_t(-1)}}, inputs);
    note("Concat (channels) -> Concatenate(axis=-1)");
    set_output(n, layer_value(id, first.kind));
}

}  // namespace lf::onnx_import
