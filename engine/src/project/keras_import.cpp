// tf.keras model.to_json() -> Graph. Layer configs keep only the fields Layerforge's layers
// take; everything else Keras writes (dtype, initialisers, trainable, ...) is ignored.
#include "layerforge/project/keras_import.h"

#include <map>
#include <nlohmann/json.hpp>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/core/limits.h"

namespace lf {

namespace {

using Json = nlohmann::json;

struct Importer {
    std::string origin;
    Graph g;
    std::map<std::string, std::string> idOf;  // Keras layer name -> node id

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
            if (config.contains(key)) return &config[key];
        return nullptr;
    }

    Node& addNode(const std::string& type, const std::string& name, Params params) {
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

    // Maps one Keras layer to a node; returns false for InputLayer-less shapes handled by caller.
    Node& addLayer(const Json& layer) {
        std::string cls = layer.value("class_name", "");
        const Json& c = layer.contains("config") ? layer["config"] : Json::object();
        std::string name = c.value("name", layer.value("name", cls));
        auto copy = [&](Params& p, const char* from, const char* to) {
            if (!c.contains(from) || c[from].is_null()) return;
            const Json& v = c[from];
            if (v.is_boolean()) p[to] = v.get<bool>();
            else if (v.is_number_integer()) p[to] = v.get<std::int64_t>();
            else if (v.is_number()) p[to] = v.get<double>();
            else if (v.is_string()) p[to] = v.get<std::string>();
            else if (v.is_array()) p[to] = v.get<IntList>();
        };
        Params p;
        if (cls == "InputLayer") {
            const Json* shape = batchShape(c);
            if (!shape) fail("layer '" + name + "': InputLayer without batch_input_shape or batch_shape");
            p["shape"] = shapeWithoutBatch(*shape, name);
            return addNode("Input", name, p);
        }
        static const std::map<std::string, std::vector<std::pair<const char*, const char*>>> supported = {
            {"Dense", {{"units", "units"}, {"activation", "activation"}, {"use_bias", "use_bias"}}},
            {"Dropout", {{"rate", "rate"}}},
            {"Flatten", {}},
            {"Reshape", {{"target_shape", "target_shape"}}},
            {"Activation", {{"activation", "activation"}}},
            {"ReLU", {{"negative_slope", "negative_slope"}, {"max_value", "max_value"}, {"threshold", "threshold"}}},
            {"LeakyReLU", {{"alpha", "alpha"}, {"negative_slope", "alpha"}}},
            {"Softmax", {{"axis", "axis"}}},
            {"Add", {}},
            {"Concatenate", {{"axis", "axis"}}},
        };
        auto it = supported.find(cls);
        if (it == supported.end()) fail("layer '" + name + "': " + cls + " is not supported by Layerforge yet");
        for (const auto& [from, to] : it->second) copy(p, from, to);
        return addNode(cls, name, p);
    }

    void connect(const std::string& fromLayer, const std::string& toId, int port) {
        auto it = idOf.find(fromLayer);
        if (it == idOf.end()) fail("layer '" + toId + "' takes input from unknown layer '" + fromLayer + "'");
        g.edges.push_back({{it->second, 0}, {toId, port}});
    }

    void importSequential(const Json& layers) {
        std::string previous;
        for (const Json& layer : layers) {
            const Json& c = layer.contains("config") ? layer["config"] : Json::object();
            if (previous.empty() && layer.value("class_name", "") != "InputLayer") {
                const Json* shape = batchShape(c);
                if (!shape) fail("the first layer has no input shape; add an InputLayer");
                Params p{{"shape", shapeWithoutBatch(*shape, c.value("name", "input"))}};
                previous = addNode("Input", "input", p).id;
            }
            Node& n = addLayer(layer);
            std::string id = n.id;
            if (!previous.empty()) g.edges.push_back({{previous, 0}, {id, 0}});
            previous = id;
        }
    }

    // Collects the source layer names of one inbound call, Keras 2 or Keras 3 spelling.
    static void sources(const Json& j, std::vector<std::string>& out) {
        if (j.is_object()) {
            if (j.contains("config") && j["config"].contains("keras_history")) {
                // at(): const operator[] does not check bounds, and an empty history is hostile input.
                out.push_back(j["config"]["keras_history"].at(0).get<std::string>());
                return;
            }
            if (j.contains("args")) sources(j["args"], out);
            return;
        }
        if (!j.is_array()) return;
        if (!j.empty() && j[0].is_string()) {  // Keras 2: ["dense", 0, 0, {}]
            out.push_back(j[0].get<std::string>());
            return;
        }
        for (const Json& e : j) sources(e, out);
    }

    void importFunctional(const Json& layers) {
        for (const Json& layer : layers) {
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
};

}  // namespace

Graph import_keras_model(const std::string& json_text, const std::string& origin) {
    check_json_depth(json_text, origin);
    Json j;
    try {
        j = Json::parse(json_text);
    } catch (const Json::exception& e) {
        throw input_error(origin + ": not valid JSON: " + e.what());
    }
    Importer im{origin, {}, {}};
    try {
        std::string cls = j.value("class_name", "");
        if (!j.contains("config") || !j["config"].contains("layers"))
            im.fail("not a Keras model config (expected model.to_json() output with config.layers)");
        const Json& layers = j["config"]["layers"];
        if (layers.size() > kMaxGraphNodes)
            im.fail("config.layers holds " + std::to_string(layers.size()) + " layers, more than the limit of " +
                    std::to_string(kMaxGraphNodes) + "; the file is damaged or not a model");
        if (cls == "Sequential") im.importSequential(layers);
        else if (cls == "Functional" || cls == "Model") im.importFunctional(layers);
        else im.fail("unsupported model class '" + cls + "' (Sequential or Functional)");
    } catch (const Json::exception& e) {
        im.fail(std::string("malformed model config: ") + e.what());
    }
    return im.g;
}

Graph import_keras_model_file(const std::string& path) { return import_keras_model(read_file(path, "Keras model"), path); }

}  // namespace lf
