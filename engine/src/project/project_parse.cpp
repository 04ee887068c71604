// JSON project format v1 -> Project. Structure only: every field is type-checked, unknown fields
// are rejected (except inside layer "params", which analyze() checks against the layer schema).
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "layerforge/core/limits.h"
#include "layerforge/project/project.h"
#include "project/json_view.h"

namespace lf {
namespace {

using detail::Json;
using detail::JsonView;

PortRef read_port(const JsonView& v) {
    const std::string s = v.as_string();
    const auto colon = s.rfind(':');
    const std::string digits = colon == std::string::npos ? "" : s.substr(colon + 1);
    bool ok = colon != std::string::npos && colon > 0 && !digits.empty() && digits.size() <= 6;
    for (char c : digits) ok = ok && std::isdigit(static_cast<unsigned char>(c));
    if (!ok) throw v.error("expected \"node:port\" such as \"dense:0\", found \"" + s + "\"; fix the edge");
    return PortRef{s.substr(0, colon), std::stoi(digits)};
}

Params read_params(const JsonView& v, const char* skip = nullptr) {
    v.expect_object();
    Params params;
    for (const auto& [key, value] : v.json().items())
        if (!skip || key != skip) params[key] = v.child(key)->as_param();
    return params;
}

// {"type": "Adam", "learning_rate": 0.001}: the type plus its parameters, flattened.
NamedConfig read_named(const JsonView& v) {
    v.expect_object();
    NamedConfig c;
    c.type = v.required("type", "add \"type\", e.g. \"type\": \"Adam\"").as_string();
    c.params = read_params(v, "type");
    return c;
}

Node read_node(const JsonView& v) {
    v.expect_object({"id", "type", "name", "params", "position", "trainable"});
    Node n;
    n.id = v.required("id", "give the node a unique \"id\"").as_string(kMaxNameBytes);
    if (n.id.empty()) throw v.child("id")->error("node id is empty; give the node a unique id");
    n.type = v.required("type", "add the layer type, e.g. \"type\": \"Dense\"").as_string();
    n.name = n.id;
    v.read("name", n.name, kMaxNameBytes);
    if (auto p = v.child("params")) n.params = read_params(*p);
    v.read("trainable", n.trainable);  // absent: trainable, as in Keras
    if (auto pos = v.child("position")) {
        if (pos->array_size() != 2) throw pos->error("expected [x, y]; fix the position");
        n.x = pos->element(0).as_number();
        n.y = pos->element(1).as_number();
    }
    return n;
}

// {"id": "encoder", "name": "Encoder", "nodes": ["dense", "relu"], "collapsed": false}
NodeGroup read_group(const JsonView& v, const std::map<std::string, std::size_t>& nodes,
                     std::map<std::string, std::string>& group_of) {
    v.expect_object({"id", "name", "nodes", "collapsed"});
    NodeGroup g;
    g.id = v.required("id", "give the group a unique \"id\"").as_string(kMaxNameBytes);
    if (g.id.empty()) throw v.child("id")->error("group id is empty; give the group a unique id");
    g.name = g.id;
    v.read("name", g.name, kMaxNameBytes);
    v.read("collapsed", g.collapsed);
    const JsonView members = v.required("nodes", "add \"nodes\": [...] with the ids of the group's layers");
    if (members.array_size() == 0) throw members.error("a group needs at least one node; add one or remove the group");
    for (std::size_t i = 0; i < members.array_size(); ++i) {
        const JsonView m = members.element(i);
        std::string id = m.as_string();
        if (!nodes.count(id)) throw m.error("unknown node \"" + id + "\"; use the id of a node in model.nodes");
        auto [it, fresh] = group_of.emplace(id, g.id);
        if (!fresh)
            throw m.error("node \"" + id + "\" is already in group \"" + it->second +
                          "\"; a node belongs to at most one group");
        g.nodes.push_back(std::move(id));
    }
    return g;
}

// Graph analysis grows faster than linearly with size: a hostile file must not stall the studio.
void check_count(const JsonView& list, std::size_t max, const char* what) {
    if (list.array_size() > max)
        throw list.error(std::to_string(list.array_size()) + " " + what + " exceed the limit of " +
                         std::to_string(max) + "; split the model or check that the file is not damaged");
}

Graph read_graph(const JsonView& v) {
    v.expect_object({"nodes", "edges", "groups"});
    Graph g;
    const JsonView nodes = v.required("nodes", "add \"nodes\": [...] with the model's layers");
    check_count(nodes, kMaxGraphNodes, "nodes");
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < nodes.array_size(); ++i) {
        g.nodes.push_back(read_node(nodes.element(i)));
        auto [it, inserted] = index.emplace(g.nodes.back().id, i);
        if (!inserted)
            throw nodes.element(i).child("id")->error("duplicate node id \"" + it->first + "\" (also used by " +
                                                      nodes.path() + "[" + std::to_string(it->second) +
                                                      "]); give every node a unique id");
    }
    if (auto edges = v.child("edges")) {
        check_count(*edges, kMaxGraphEdges, "edges");
        for (std::size_t i = 0; i < edges->array_size(); ++i) {
            const JsonView e = edges->element(i);
            e.expect_object({"from", "to"});
            Edge edge;
            PortRef* ends[] = {&edge.from, &edge.to};
            const char* keys[] = {"from", "to"};
            for (int k = 0; k < 2; ++k) {
                const JsonView end = e.required(keys[k], "add \"node:port\", e.g. \"dense:0\"");
                *ends[k] = read_port(end);
                if (!index.count(ends[k]->node))
                    throw end.error("unknown node \"" + ends[k]->node + "\"; use the id of a node in model.nodes");
            }
            g.edges.push_back(edge);
        }
    }
    if (auto groups = v.child("groups")) {  // optional: files without groups are format v1 as before
        std::map<std::string, std::string> group_of;  // node id -> group id
        std::map<std::string, std::size_t> ids;
        for (std::size_t i = 0; i < groups->array_size(); ++i) {
            g.groups.push_back(read_group(groups->element(i), index, group_of));
            auto [it, fresh] = ids.emplace(g.groups.back().id, i);
            if (!fresh)
                throw groups->element(i).child("id")->error("duplicate group id \"" + it->first + "\" (also used by " +
                                                            groups->path() + "[" + std::to_string(it->second) +
                                                            "]); give every group a unique id");
        }
    }
    return g;
}

void check_one_of(const JsonView& parent, const std::string& key, const std::string& value,
                  const std::vector<std::string>& allowed) {
    std::string list;
    for (const std::string& a : allowed) {
        if (value == a) return;
        list += (list.empty() ? "\"" : ", \"") + a + "\"";
    }
    throw parent.child(key)->error("unknown value \"" + value + "\"; use one of " + list);
}

void check_min(const JsonView& parent, const std::string& key, double value, double min) {
    if (value < min)
        throw parent.child(key)->error("must be at least " + to_string(ParamValue(min)) + "; fix the value");
}

DatasetBinding read_dataset(const JsonView& v) {
    v.expect_object({"kind", "path", "validation", "validation_split", "limit_train", "limit_test", "classes", "image"});
    DatasetBinding d;
    v.read("kind", d.kind);
    check_one_of(v, "kind", d.kind, {"fashion-mnist", "image-folder"});
    v.read("path", d.path);
    v.read("validation", d.validation);
    check_one_of(v, "validation", d.validation, {"test", "split", "none"});
    v.read("validation_split", d.validation_split);
    if (!(d.validation_split >= 0.0 && d.validation_split < 1.0))
        throw v.child("validation_split")->error("must be a fraction in [0, 1); fix the value");
    v.read("limit_train", d.limit_train);
    check_min(v, "limit_train", double(d.limit_train), 0);
    v.read("limit_test", d.limit_test);
    check_min(v, "limit_test", double(d.limit_test), 0);
    if (auto c = v.child("classes"))
        for (std::size_t i = 0; i < c->array_size(); ++i) d.classes.push_back(c->element(i).as_string());
    if (auto i = v.child("image")) d.image = read_params(*i);  // keys are checked when the data is bound
    return d;
}

Precision read_precision(const JsonView& v) {
    std::string name = to_string(Precision::Float32);
    v.read("precision", name);
    std::vector<std::string> names;
    for (Precision p : kPrecisions) names.push_back(to_string(p));
    check_one_of(v, "precision", name, names);
    return *parse_precision(name);
}

TrainingConfig read_training(const JsonView& v) {
    v.expect_object({"optimizer", "loss", "metrics", "schedule", "batch_size", "epochs", "seed", "shuffle",
                     "callbacks", "memory_limit_mb", "gpu_memory_limit_mib", "initial_weights", "precision"});
    TrainingConfig t;
    if (auto o = v.child("optimizer")) t.optimizer = read_named(*o);
    if (auto l = v.child("loss")) {
        if (l->json().is_string()) {
            t.loss = l->as_string();
        } else {
            NamedConfig loss = read_named(*l);
            t.loss = loss.type;
            t.loss_params = loss.params;
        }
    }
    if (auto m = v.child("metrics")) {
        t.metrics.clear();
        for (std::size_t i = 0; i < m->array_size(); ++i) t.metrics.push_back(m->element(i).as_string());
    }
    if (auto s = v.child("schedule")) t.schedule = read_named(*s);
    v.read("batch_size", t.batch_size);
    check_min(v, "batch_size", double(t.batch_size), 1);
    v.read("epochs", t.epochs);
    check_min(v, "epochs", double(t.epochs), 0);
    v.read("seed", t.seed);
    v.read("shuffle", t.shuffle);
    v.read("memory_limit_mb", t.memory_limit_mb);
    check_min(v, "memory_limit_mb", double(t.memory_limit_mb), 0);
    v.read("gpu_memory_limit_mib", t.gpu_memory_limit_mib);
    check_min(v, "gpu_memory_limit_mib", double(t.gpu_memory_limit_mib), 0);
    v.read("initial_weights", t.initial_weights);
    t.precision = read_precision(v);
    if (auto c = v.child("callbacks"))
        for (std::size_t i = 0; i < c->array_size(); ++i) t.callbacks.push_back(read_named(c->element(i)));
    return t;
}

Project read_project(const JsonView& root) {
    root.expect_object({"format", "version", "name", "model", "dataset", "training"});
    if (auto f = root.child("format"); f && f->as_string() != "layerforge-project")
        throw f->error("expected \"layerforge-project\"; this is not a Layerforge project file");
    const JsonView v = root.required("version", "add \"version\": 1");
    if (!v.json().is_number_integer())
        throw v.error("expected the integer format version 1, found " + v.json().dump() +
                      "; this file is damaged or not a Layerforge project");
    const bool newer = v.json().is_number_unsigned()
                           ? v.json().get<std::uint64_t>() > std::uint64_t(kProjectVersion)
                           : v.json().get<std::int64_t>() > kProjectVersion;
    if (newer)
        throw v.error("the file was written by a newer Layerforge (format version " + v.json().dump() +
                      ", this build reads up to " + std::to_string(kProjectVersion) +
                      "); update Layerforge to open it");
    if (v.json().get<std::int64_t>() < 1)
        throw v.error("unsupported format version " + v.json().dump() + "; expected " +
                      std::to_string(kProjectVersion) + " (the file is damaged)");
    Project p;
    p.version = static_cast<int>(v.json().get<std::int64_t>());
    root.read("name", p.name, kMaxNameBytes);
    p.graph = read_graph(root.required("model", "add \"model\": {\"nodes\": [...], \"edges\": [...]}"));
    if (auto d = root.child("dataset")) p.dataset = read_dataset(*d);
    if (auto t = root.child("training")) p.training = read_training(*t);
    return p;
}

// "line L, column C" of a byte offset (nlohmann reports the 1-based index of the last byte read).
std::string line_column(const std::string& text, std::size_t byte) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace

Project parse_project(const std::string& json_text, const std::string& origin) {
    check_json_depth(json_text, origin);
    Json doc;
    try {
        doc = Json::parse(json_text);
    } catch (const Json::parse_error& e) {
        std::string detail = e.what();
        if (auto pos = detail.find(": "); pos != std::string::npos) detail = detail.substr(pos + 2);
        const std::string where = e.byte > 0 ? ":" + line_column(json_text, e.byte) : "";
        throw input_error(origin + where + ": malformed JSON (" + detail + "); fix the syntax");
    } catch (const Json::exception& e) {
        throw input_error(origin + ": malformed JSON (" + e.what() + "); fix the syntax");
    }
    try {
        return read_project(JsonView(doc, "", origin));
    } catch (const Json::exception& e) {  // a type check this reader missed: still an input error
        throw input_error(origin + ": invalid project file (" + e.what() + ")");
    }
}

}  // namespace lf
