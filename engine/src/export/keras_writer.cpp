#include "export/keras_writer.h"

#include <map>
#include <set>
#include <variant>

#include "export/layer_mapping.h"
#include "export/npz.h"
#include "export/python_code.h"
#include "layerforge/store/weights_file.h"

namespace lf::exporter {

namespace {

const char* kHeader = R"PY("""tf.keras model exported by Layerforge.

    from keras_model import load_model
    model = load_model()                 # weights from the .npz beside this script
    probabilities = model.predict(x)     # x: float32 (N, H, W, C), normalised as below
"""
import os

import numpy as np
import tensorflow as tf

)PY";

const char* kLoader = R"PY(

def load_model(path=None):
    """The model with its exported weights (model.set_weights in model.layers order)."""
    model = build_model()
    path = path or os.path.join(os.path.dirname(os.path.abspath(__file__)), WEIGHTS_FILE)
    data = np.load(path)
    values = []
    for layer in model.layers:
        for name, shape in WEIGHT_SHAPES.get(layer.name, []):
            if data[name].shape != shape:
                raise ValueError(f"{path}: {name} has shape {data[name].shape}, the model needs {shape}")
            values.append(data[name])
    model.set_weights(values)
    return model
)PY";

std::string literal(const ParamValue& v) {
    if (auto b = std::get_if<bool>(&v)) return *b ? "True" : "False";
    if (auto i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
    if (auto d = std::get_if<double>(&v)) return python_float(*d);
    if (auto s = std::get_if<std::string>(&v)) return "\"" + *s + "\"";  // choice values: plain identifiers
    return python_tuple(std::get<IntList>(v));
}

// An activation as tf.keras code. Keras 2's hard_sigmoid is 0.2 x + 0.5 clipped, Keras 3's and
// ours relu6(x + 3) / 6, and Keras 2 has no hard_swish: both spelled out, right under either.
std::string activation_literal(const std::string& name) {
    if (name == "hard_sigmoid") return "lambda t: tf.nn.relu6(t + 3.0) / 6.0";
    if (name == "hard_swish" || name == "hard_silu") return "lambda t: t * tf.nn.relu6(t + 3.0) / 6.0";
    return "\"" + name + "\"";
}

// The constructor arguments: the engine's parameters are Keras' keyword arguments, except where noted.
std::string arguments(const Node& n, const Params& p) {
    if (n.type == "Sigmoid") return "\"sigmoid\"";
    if (n.type == "Tanh") return "\"tanh\"";
    if (n.type == "GELU") return param_bool(p, "approximate") ? "lambda t: tf.nn.gelu(t, approximate=True)" : "\"gelu\"";
    std::string s;
    for (const auto& [key, value] : p) {
        // The pooling parameters Keras does not have (export refuses them unless at defaults).
        if (key == "explicit_padding" || key == "ceil_mode" || key == "count_include_pad") continue;
        std::string v = literal(value);
        if (n.type == "ZeroPadding2D") {  // (top, bottom, left, right) -> ((top, bottom), (left, right))
            const IntList& t = std::get<IntList>(value);
            v = "(" + python_tuple({t[0], t[1]}) + ", " + python_tuple({t[2], t[3]}) + ")";
        }
        if ((key == "strides" || key == "output_padding") && std::get<IntList>(value).empty())
            v = "None";  // pooling: the pool size; Conv2DTranspose: Keras' own output size
        if (n.type == "ReLU" && key == "max_value" && std::get<double>(value) <= 0) v = "None";  // 0: no cap
        if (key == "activation") v = activation_literal(std::get<std::string>(value));
        s += key + "=" + v + ", ";
    }
    return s;
}

}  // namespace

KerasExport write_keras(const Model& m, const ExportMetadata& meta, const std::string& weights_file) {
    std::set<std::string> taken;
    std::map<std::string, std::string> var;
    std::string body, shapes;
    for (const std::string& id : m.analysis().order) {
        const Node& n = *m.graph().find(id);
        const Params& p = m.info(id).params;
        const std::string v = var[id] = python_name(n.name, taken);
        if (n.type == "Input") {
            body += "    " + v + " = tf.keras.Input(shape=" + python_tuple(param_list(p, "shape")) + ", name=\"" + n.name + "\")\n";
            continue;
        }
        std::string inputs;
        const auto edges = m.graph().inputs_of(id);
        for (const Edge& e : edges) inputs += (inputs.empty() ? "" : ", ") + var.at(e.from.node);
        if (edges.size() > 1) inputs = "[" + inputs + "]";
        body += "    " + v + " = tf.keras.layers." + find_mapping(n.type)->keras_class + "(" + arguments(n, p) +
                (n.type == "Sigmoid" || n.type == "Tanh" || n.type == "GELU" ? ", " : "") + "name=\"" + n.name + "\")(" +
                inputs + ")\n";
        std::string list;
        for (const WeightRef* w : m.weights_of(id)) list += "(\"" + w->name + "\", " + python_tuple(w->shape.dims) + "), ";
        if (!list.empty()) shapes += "    \"" + n.name + "\": [" + list + "],\n";
    }
    const std::string out = var.at(m.output_node()), in = var.at(m.input_node());
    KerasExport e;
    e.code = std::string(kHeader) + python_metadata(meta, m.info(m.input_node()).layer.output.dims) + "WEIGHTS_FILE = \"" +
             weights_file + "\"\n" + "# Each layer's weights in Keras order: (npz key, shape).\nWEIGHT_SHAPES = {\n" + shapes +
             "}\n\n\ndef build_model():\n" + body + "    return tf.keras.Model(inputs=" + in + ", outputs=" + out +
             ", name=\"layerforge\")\n" + kLoader;
    e.weights = encode_npz(weight_tensors(m, m.weights().data()));
    return e;
}

}  // namespace lf::exporter
