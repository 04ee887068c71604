// Project -> JSON project format v1: fixed key order, 2-space indent, shortest round-trip doubles,
// every field written, so that files diff well and parse back to an equal Project.
#include <algorithm>
#include <cmath>
#include <string>

#include "layerforge/project/project.h"
#include "project/json_view.h"

namespace lf {
namespace {

using detail::Json;

double finite(double d, const std::string& where) {
    if (!std::isfinite(d)) throw input_error("cannot save the project: " + where + " is not a finite number");
    return d;
}

Json param_json(const ParamValue& v, const std::string& where) {
    struct Visitor {
        const std::string& where;
        Json operator()(bool b) const { return b; }
        Json operator()(std::int64_t i) const { return i; }
        Json operator()(double d) const { return finite(d, where); }
        Json operator()(const std::string& s) const { return s; }
        Json operator()(const IntList& l) const { return Json(l); }
    };
    return std::visit(Visitor{where}, v);
}

void put_params(Json& obj, const Params& params, const std::string& where) {
    for (const auto& [key, value] : params) {
        if (obj.contains(key))
            throw input_error("cannot save the project: " + where + " has a parameter named \"" + key +
                              "\", which the file format reserves; rename it");
        obj[key] = param_json(value, where + "." + key);
    }
}

Json named_json(const std::string& type, const Params& params, const std::string& where) {
    Json obj = Json::object();
    obj["type"] = type;
    put_params(obj, params, where);
    return obj;
}

// Canvas coordinates are usually whole numbers: write those without a ".0".
Json coordinate(double d, const std::string& where) {
    finite(d, where);
    if (d == std::floor(d) && std::fabs(d) < 9.0e15) return static_cast<std::int64_t>(d);
    return d;
}

Json graph_json(const Graph& g) {
    Json nodes = Json::array();
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        const std::string where = "model.nodes[" + std::to_string(i) + "]";
        Json params = Json::object();
        put_params(params, n.params, where + ".params");
        Json node{{"id", n.id},
                  {"type", n.type},
                  {"name", n.name},
                  {"params", params},
                  {"position", {coordinate(n.x, where), coordinate(n.y, where)}}};
        if (!n.trainable) node["trainable"] = false;  // written only when frozen: older files read as before
        nodes.push_back(node);
    }
    Json edges = Json::array();
    for (const Edge& e : g.edges) edges.push_back(Json{{"from", e.from.str()}, {"to", e.to.str()}});
    Json j{{"nodes", nodes}, {"edges", edges}};
    if (!g.groups.empty()) {  // absent when there are none: such files read as before
        Json groups = Json::array();
        for (const NodeGroup& group : g.groups)
            groups.push_back(
                Json{{"id", group.id}, {"name", group.name}, {"nodes", group.nodes}, {"collapsed", group.collapsed}});
        j["groups"] = groups;
    }
    return j;
}

Json dataset_json(const DatasetBinding& d) {
    Json j{{"kind", d.kind},
           {"path", d.path},
           {"validation", d.validation},
           {"validation_split", finite(d.validation_split, "dataset.validation_split")},
           {"limit_train", d.limit_train},
           {"limit_test", d.limit_test}};
    if (!d.classes.empty()) j["classes"] = d.classes;  // absent for the built-in dataset
    if (!d.image.empty()) {
        Json image = Json::object();
        put_params(image, d.image, "dataset.image");
        j["image"] = image;
    }
    return j;
}

Json training_json(const TrainingConfig& t) {
    Json callbacks = Json::array();
    for (std::size_t i = 0; i < t.callbacks.size(); ++i)
        callbacks.push_back(named_json(t.callbacks[i].type, t.callbacks[i].params,
                                       "training.callbacks[" + std::to_string(i) + "]"));
    Json j{{"optimizer", named_json(t.optimizer.type, t.optimizer.params, "training.optimizer")},
           {"loss", named_json(t.loss, t.loss_params, "training.loss")},
           {"metrics", t.metrics},
           {"schedule", named_json(t.schedule.type, t.schedule.params, "training.schedule")},
           {"batch_size", t.batch_size},
           {"epochs", t.epochs},
           {"seed", t.seed},
           {"shuffle", t.shuffle},
           {"callbacks", callbacks}};
    if (t.memory_limit_mb > 0) j["memory_limit_mb"] = t.memory_limit_mb;  // files without a limit stay as they were
    if (t.gpu_memory_limit_mib > 0) j["gpu_memory_limit_mib"] = t.gpu_memory_limit_mib;
    if (!t.initial_weights.empty()) j["initial_weights"] = t.initial_weights;
    if (t.precision != Precision::Float32) j["precision"] = to_string(t.precision);
    return j;
}

// Like dump(2), but arrays of scalars stay on one line: "shape": [28, 28, 1].
void write_pretty(std::string& out, const Json& j, int indent) {
    const bool flat = j.is_array() && std::none_of(j.begin(), j.end(), [](const Json& e) { return e.is_structured(); });
    if (!j.is_structured() || j.empty() || flat) {
        if (!j.is_array() || j.empty()) {
            out += j.dump();
            return;
        }
        out += '[';
        for (std::size_t i = 0; i < j.size(); ++i) {
            if (i) out += ", ";
            out += j[i].dump();
        }
        out += ']';
        return;
    }
    out += j.is_object() ? "{\n" : "[\n";
    bool first = true;
    for (const auto& [key, value] : j.items()) {
        out += first ? "" : ",\n";
        first = false;
        out.append(static_cast<std::size_t>(indent) + 2, ' ');
        if (j.is_object()) {
            out += Json(key).dump();
            out += ": ";
        }
        write_pretty(out, value, indent + 2);
    }
    out += '\n';
    out.append(static_cast<std::size_t>(indent), ' ');
    out += j.is_object() ? '}' : ']';
}

}  // namespace

std::string serialize_project(const Project& p) {
    Json doc = Json::object();
    doc["format"] = "layerforge-project";
    doc["version"] = p.version;
    doc["name"] = p.name;
    doc["model"] = graph_json(p.graph);
    doc["dataset"] = dataset_json(p.dataset);
    doc["training"] = training_json(p.training);
    try {
        std::string out;
        write_pretty(out, doc, 0);
        out += '\n';
        return out;
    } catch (const Json::exception& e) {  // e.g. a name that is not valid UTF-8
        throw input_error(std::string("cannot save the project: ") + e.what());
    }
}

}  // namespace lf
