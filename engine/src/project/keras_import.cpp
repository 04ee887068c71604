// Keras model config -> Graph. The layer table (keras_layer_table.cpp) converts each layer; this
// file follows the model's structure: Sequential (a chain) or Functional (inbound_nodes, Keras 2
// lists or Keras 3 {"args": [keras tensors]}).
#include "layerforge/project/keras_import.h"

#include <algorithm>
#include <map>
#include <regex>
#include <nlohmann/json.hpp>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/core/limits.h"
#include "layerforge/graph/analysis.h"
#include "project/keras_layer_table.h"

namespace lf {

namespace {

using Json = nlohmann::json;

struct Importer {
    std::string origin;
    KerasModelConfig out;
    std::map<std::string, std::string> idOf;           // Keras layer name -> node id
    std::map<std::string, std::int64_t> channelAxis;   // node id -> BatchNormalization axis (Keras counting)
    bool sawInitializers = false;

    [[noreturn]] void fail(const std::string& msg) const { throw input_error(origin + ": " + msg); }

    IntList shapeWithoutBatch(const Json& batchShape, const std::string& layer) const {
        if (!batchShape.is_array() || batchShape.size() < 2) fail("layer '" + layer + "': missing input shape");
        IntList dims;
        for (std::size_t i = 1; i < batchShape.size(); ++i) {
            if (!batchShape[i].is_number_integer()) fail("layer '" + layer + "': input dimensions must be known");
            dims.push_back(batchShape[i].get<std::int64_t>());
        }
        return dims;
    }

    static const Json* batchShape(const Json& config) {
        for (const char* key : {"batch_input_shape", "batch_shape"})
            if (config.contains(key) && !config[key].is_null()) return &config[key];
        return nullptr;
    }

    Node& addNode(const std::string& type, const std::string& name, Params params) {
        Graph& g = out.graph;
        Node n;
        n.id = name;
        for (int i = 1; idOf.count(n.id) || g.find(n.id); ++i) n.id = name + "_" + std::to_string(i);
        n.type = type;
        n.name = n.id;
        n.params = std::move(params);
        n.x = double(g.nodes.size()) * 220;
        idOf[name] = n.id;
        g.nodes.push_back(std::move(n));
        return g.nodes.back();
    }

    // Maps one Keras layer to a node.
    Node& addLayer(const Json& layer) {
        if (!layer.is_object()) fail("a layer entry is not an object");
        const std::string cls = layer.value("class_name", "");
        const Json& c = layer.contains("config") && layer["config"].is_object() ? layer["config"] : Json::object();
        const std::string name = c.value("name", layer.value("name", cls));
        if (cls == "Sequential" || cls == "Functional" || cls == "Model")
            fail("layer '" + name + "' is a nested model; Layerforge imports one level of layers (flatten it in Keras first)");
        for (const auto& [key, value] : c.items())
            if (key.ends_with("_initializer") && !value.is_null()) sawInitializers = true;
        KerasLayerRecord record{name, cls, "", {}};
        if (cls == "InputLayer") {
            const Json* shape = batchShape(c);
            if (!shape) fail("layer '" + name + "': InputLayer without batch_input_shape or batch_shape");
            Node& n = addNode("Input", name, {{"shape", shapeWithoutBatch(*shape, name)}});
            record.node = n.id;
            out.layers.push_back(record);
            return n;
        }
        keras::ConvertedLayer converted;
        try {
            converted = keras::convert_layer(cls, c, name, out.notes);
        } catch (const Error& e) {
            fail(e.what());
        }
        Node& n = addNode(converted.type, name, std::move(converted.params));
        if (const auto t = c.find("trainable"); t != c.end() && t->is_boolean()) n.trainable = t->get<bool>();  // a frozen layer stays frozen
        if (converted.type == "BatchNormalization") channelAxis[n.id] = converted.channel_axis;
        for (const std::string& w : converted.absent_weights)
            out.notes.push_back("layer '" + name + "': no " + w + " in Keras (" + (w == "beta" ? "center" : "scale") +
                                "=False); imported as a fixed " + (w == "beta" ? "0" : "1") +
                                " that Layerforge will train unless the layer is frozen");
        record.node = n.id;
        record.absent_weights = std::move(converted.absent_weights);
        out.layers.push_back(record);
        return n;
    }

    void connect(const std::string& fromLayer, const std::string& toId, int port) {
        auto it = idOf.find(fromLayer);
        if (it == idOf.end()) fail("layer '" + toId + "' takes input from unknown layer '" + fromLayer + "'");
        out.graph.edges.push_back({{it->second, 0}, {toId, port}});
    }

    void importSequential(const Json& config) {
        const Json& layers = config["layers"];
        std::string previous;
        for (const Json& layer : layers) {
            const Json& c = layer.contains("config") ? layer["config"] : Json::object();
            if (previous.empty() && layer.value("class_name", "") != "InputLayer") {
                const Json* shape = batchShape(c);
                if (!shape && config.contains("build_input_shape")) shape = &config["build_input_shape"];
                if (!shape) fail("the first layer has no input shape; add an InputLayer");
                Params p{{"shape", shapeWithoutBatch(*shape, c.value("name", "input"))}};
                previous = addNode("Input", "input", p).id;
            }
            std::string id = addLayer(layer).id;
            if (!previous.empty()) out.graph.edges.push_back({{previous, 0}, {id, 0}});
            previous = id;
        }
    }

    // Collects the source layer names of one inbound call, Keras 2 or Keras 3 spelling. Keras 3
    // nests the tensors in "args" (a list for Add/Concatenate, "__tuple__" objects possible).
    static void sources(const Json& j, std::vector<std::string>& out) {
        if (j.is_object()) {
            if (j.contains("config") && j["config"].is_object() && j["config"].contains("keras_history")) {
                // at(): const operator[] does not check bounds, and an empty history is hostile input.
                out.push_back(j["config"]["keras_history"].at(0).get<std::string>());
                return;
            }
            for (const auto& [key, value] : j.items())
                if (key != "kwargs") sources(value, out);
            return;
        }
        if (!j.is_array()) return;
        if (!j.empty() && j[0].is_string()) {  // Keras 2: ["dense", 0, 0, {}]
            out.push_back(j[0].get<std::string>());
            return;
        }
        for (const Json& e : j) sources(e, out);
    }

    void importFunctional(const Json& config) {
        for (const Json& layer : config["layers"]) {
            std::string id = addLayer(layer).id;
            std::vector<std::string> from;
            if (layer.contains("inbound_nodes") && !layer["inbound_nodes"].empty()) {
                const Json& inbound = layer["inbound_nodes"];
                if (inbound.size() > 1) fail("layer '" + id + "' is called more than once (shared layers are not supported)");
                sources(inbound[0], from);
            }
            for (std::size_t port = 0; port < from.size(); ++port) connect(from[port], id, int(port));
        }
    }

    // What only shapes can tell: a layer type this build lacks, a BatchNormalization over
    // another axis than the channels.
    void checkAgainstShapes() {
        const Analysis a = analyze(out.graph);
        for (const Node& n : out.graph.nodes) {
            const auto it = a.nodes.find(n.id);
            if (it == a.nodes.end()) continue;
            if (!it->second.spec) fail("layer '" + n.name + "': " + n.type + " is not supported by Layerforge yet");
            const auto axis = channelAxis.find(n.id);
            if (axis == channelAxis.end() || axis->second == -1 || it->second.inputs.empty()) continue;
            const auto rank = std::int64_t(it->second.inputs[0].rank());
            if (axis->second != rank)
                fail("layer '" + n.name + "': BatchNormalization over axis " + std::to_string(axis->second) +
                     " is not supported; Layerforge normalises the last (channel) axis, " + std::to_string(rank));
        }
    }
};

}  // namespace

KerasModelConfig read_keras_model_config(const std::string& json_text, const std::string& origin) {
    check_json_depth(json_text, origin);
    Json j;
    try {
        j = Json::parse(json_text);
    } catch (const Json::exception& e) {
        throw input_error(origin + ": not valid JSON: " + e.what());
    }
    Importer im{origin, {}, {}, {}};
    try {
        if (!j.is_object() || !j.contains("config") || !j["config"].is_object() || !j["config"].contains("layers") ||
            !j["config"]["layers"].is_array())
            im.fail("not a Keras model config (expected model.to_json() output with config.layers)");
        const std::string cls = j.value("class_name", "");
        const Json& config = j["config"];
        if (config["layers"].size() > kMaxGraphNodes)
            im.fail("config.layers holds " + std::to_string(config["layers"].size()) + " layers, more than the limit of " +
                    std::to_string(kMaxGraphNodes) + "; the file is damaged or not a model");
        if (cls == "Sequential") im.importSequential(config);
        else if (cls == "Functional" || cls == "Model") im.importFunctional(config);
        else im.fail("unsupported model class '" + cls + "' (Sequential or Functional)");
    } catch (const Json::exception& e) {
        im.fail(std::string("malformed model config: ") + e.what());
    }
    im.checkAgainstShapes();
    if (im.sawInitializers)
        im.out.notes.push_back("initializers in the config ignored: the weights come from the file, or from Layerforge's "
                               "Keras-default initialisation for a config alone");
    return std::move(im.out);
}

std::string keras_snake_case(const std::string& class_name) {
    std::string s = std::regex_replace(class_name, std::regex("[^A-Za-z0-9_]+"), "");
    s = std::regex_replace(s, std::regex("(.)([A-Z][a-z]+)"), "$1_$2");
    s = std::regex_replace(s, std::regex("([a-z])([A-Z])"), "$1_$2");
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

Graph import_keras_model(const std::string& json_text, const std::string& origin) {
    return read_keras_model_config(json_text, origin).graph;
}

Graph import_keras_model_file(const std::string& path) { return import_keras_model(read_file(path, "Keras model"), path); }

}  // namespace lf
