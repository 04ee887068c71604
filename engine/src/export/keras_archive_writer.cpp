#include "export/keras_archive_writer.h"

#include <ctime>
#include <map>

#include <nlohmann/json.hpp>

#include "export/hdf5_image.h"
#include "export/zip_image.h"
#include "layerforge/core/error.h"
#include "layerforge/project/keras_import.h"

namespace lf::exporter {

namespace {

using Json = nlohmann::ordered_json;

Json shape_with_batch(const Shape& s) {
    Json out = Json::array({nullptr});
    for (std::int64_t d : s.dims) out.push_back(d);
    return out;
}

Json dtype_policy() {
    return {{"module", "keras"}, {"class_name", "DTypePolicy"}, {"config", {{"name", "float32"}}}, {"registered_name", nullptr}};
}

// The Keras 3 class a node becomes, and its constructor arguments.
std::pair<std::string, Json> keras_layer(const Node& n, const Params& p) {
    Json c;
    auto list_or_null = [](const IntList& v) { return v.empty() ? Json(nullptr) : Json(v); };
    const std::string& t = n.type;
    if (t == "Sigmoid" || t == "Tanh") return {"Activation", {{"activation", t == "Sigmoid" ? "sigmoid" : "tanh"}}};
    if (t == "GELU") {
        if (param_bool(p, "approximate"))
            throw input_error("cannot write the .keras file: layer '" + n.name +
                              "' is GELU(approximate=True), which keras.layers cannot express; use approximate false");
        return {"Activation", {{"activation", "gelu"}}};
    }
    if (t == "MaxPool2D" || t == "AveragePooling2D") {
        c = {{"pool_size", param_list(p, "pool_size")}, {"padding", param_str(p, "padding")},
             {"strides", list_or_null(param_list(p, "strides"))}, {"data_format", "channels_last"}};
        return {t == "MaxPool2D" ? "MaxPooling2D" : "AveragePooling2D", c};
    }
    if (t == "GlobalAveragePooling2D" || t == "GlobalMaxPooling2D") return {t, {{"data_format", "channels_last"}, {"keepdims", false}}};
    if (t == "ZeroPadding2D") {
        const IntList& v = param_list(p, "padding");
        return {t, {{"padding", Json::array({Json::array({v[0], v[1]}), Json::array({v[2], v[3]})})}, {"data_format", "channels_last"}}};
    }
    if (t == "BatchNormalization")
        return {t, {{"axis", -1}, {"momentum", param_float(p, "momentum")}, {"epsilon", param_float(p, "epsilon")},
                    {"center", true}, {"scale", true}}};
    if (t == "LeakyReLU") return {t, {{"negative_slope", param_float(p, "alpha")}}};
    if (t == "ReLU") {
        const double cap = param_float(p, "max_value");
        return {t, {{"max_value", cap > 0 ? Json(cap) : Json(nullptr)}, {"negative_slope", param_float(p, "negative_slope")},
                    {"threshold", param_float(p, "threshold")}}};
    }
    // The rest: the engine's parameters are Keras' keyword arguments.
    for (const auto& [key, value] : p) {
        if (auto b = std::get_if<bool>(&value)) c[key] = *b;
        else if (auto i = std::get_if<std::int64_t>(&value)) c[key] = *i;
        else if (auto d = std::get_if<double>(&value)) c[key] = *d;
        else if (auto s = std::get_if<std::string>(&value)) c[key] = *s;
        else c[key] = key == "output_padding" ? list_or_null(std::get<IntList>(value)) : Json(std::get<IntList>(value));
    }
    if (t == "Conv2D" || t == "DepthwiseConv2D" || t == "Conv2DTranspose") c["data_format"] = "channels_last";
    if (t == "Conv2D") c["groups"] = 1;
    return {t, c};
}

Json keras_tensor(const Model& m, const std::string& node) {
    return {{"class_name", "__keras_tensor__"},
            {"config", {{"shape", shape_with_batch(m.info(node).layer.output)}, {"dtype", "float32"},
                        {"keras_history", Json::array({m.graph().find(node)->name, 0, 0})}}}};
}

Json layer_config(const Model& m, const std::string& id) {
    const Node& n = *m.graph().find(id);
    if (n.type == "Input")
        return {{"module", "keras.layers"}, {"class_name", "InputLayer"},
                {"config", {{"batch_shape", shape_with_batch(m.info(id).layer.output)}, {"dtype", "float32"},
                            {"sparse", false}, {"name", n.name}}},
                {"registered_name", nullptr}, {"name", n.name}, {"inbound_nodes", Json::array()}};
    auto [cls, args] = keras_layer(n, m.info(id).params);
    Json config = {{"name", n.name}, {"trainable", n.trainable}, {"dtype", dtype_policy()}};
    for (auto& [key, value] : args.items()) config[key] = value;
    Json inputs = Json::array(), shapes = Json::array();
    for (const Edge& e : m.graph().inputs_of(id)) {
        inputs.push_back(keras_tensor(m, e.from.node));
        shapes.push_back(shape_with_batch(m.info(e.from.node).layer.output));
    }
    const bool merge = inputs.size() > 1;
    return {{"module", "keras.layers"},
            {"class_name", cls},
            {"config", config},
            {"registered_name", nullptr},
            {"build_config", {{"input_shape", merge ? shapes : shapes.at(0)}}},
            {"name", n.name},
            {"inbound_nodes", Json::array({{{"args", merge ? Json::array({inputs}) : inputs}, {"kwargs", Json::object()}}})}};
}

std::string config_json(const Model& m) {
    Json layers = Json::array();
    for (const std::string& id : m.analysis().order) layers.push_back(layer_config(m, id));
    const std::string in = m.graph().find(m.input_node())->name, out = m.graph().find(m.output_node())->name;
    const Json config = {{"name", "layerforge"},
                         {"trainable", true},
                         {"layers", layers},
                         {"input_layers", Json::array({Json::array({in, 0, 0})})},
                         {"output_layers", Json::array({Json::array({out, 0, 0})})}};
    return Json{{"module", "keras.src.models.functional"},
                {"class_name", "Functional"},
                {"config", config},
                {"registered_name", "Functional"},
                {"build_config", {{"input_shape", nullptr}}},
                {"compile_config", nullptr}}
        .dump();
}

// Variables of each layer in model.layers order, trainable first (the engine's weight order).
std::string weights_h5(const Model& m) {
    Hdf5Image h5;
    h5.group("vars");
    std::map<std::string, int> seen;
    for (const std::string& id : m.analysis().order) {
        const Node& n = *m.graph().find(id);
        const std::string cls = n.type == "Input" ? "InputLayer" : keras_layer(n, m.info(id).params).first;
        const std::string base = keras_snake_case(cls);
        const int k = seen[base]++;
        const std::string vars = "layers/" + (k == 0 ? base : base + "_" + std::to_string(k)) + "/vars";
        h5.group(vars);
        int i = 0;
        for (const WeightRef* w : m.weights_of(id))
            h5.dataset(vars + "/" + std::to_string(i++), std::vector<std::int64_t>(w->shape.dims.begin(), w->shape.dims.end()),
                       m.weights().data() + w->offset);
    }
    return h5.bytes();
}

std::string metadata_json() {
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d@%H:%M:%S", std::localtime(&now));
    // keras_version: the serialization format written, which Keras 3.0 and later load.
    return Json{{"keras_version", "3.0.0"}, {"date_saved", date}, {"saved_by", "Layerforge"}}.dump();
}

}  // namespace

std::string write_keras_archive(const Model& m) {
    return zip_image({{"metadata.json", metadata_json()}, {"config.json", config_json(m)}, {"model.weights.h5", weights_h5(m)}});
}

}  // namespace lf::exporter
