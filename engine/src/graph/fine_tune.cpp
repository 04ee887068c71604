#include "layerforge/graph/fine_tune.h"

#include <set>

#include "layerforge/core/error.h"
#include "layerforge/graph/analysis.h"

namespace lf {

namespace {

const Node& node_of(const Graph& g, const std::string& id) {
    const Node* n = g.find(id);
    if (!n) throw input_error("the model has no layer '" + id + "'");
    return *n;
}

std::set<std::string> ancestors_and_self(const Graph& g, const std::string& id) {
    std::set<std::string> seen{id};
    std::vector<std::string> todo{id};
    while (!todo.empty()) {
        const std::string n = todo.back();
        todo.pop_back();
        for (const Edge& e : g.edges)
            if (e.to.node == n && seen.insert(e.from.node).second) todo.push_back(e.from.node);
    }
    return seen;
}

// `base`, or base_2, base_3, ... : free both as an id and as a layer name.
std::string unused_name(const Graph& g, const std::string& base) {
    auto taken = [&](const std::string& s) {
        for (const Node& n : g.nodes)
            if (n.id == s || n.name == s) return true;
        return false;
    };
    std::string s = base;
    for (int i = 2; taken(s); ++i) s = base + "_" + std::to_string(i);
    return s;
}

Node& append_layer(Graph& g, const std::string& type, const std::string& base, Params params, double x, double y) {
    const std::string id = unused_name(g, base);
    g.nodes.push_back(Node{.id = id, .type = type, .name = id, .params = std::move(params), .x = x, .y = y});
    return g.nodes.back();
}

}  // namespace

std::vector<std::string> nodes_up_to(const Graph& g, const std::string& node) {
    node_of(g, node);
    const std::set<std::string> keep = ancestors_and_self(g, node);
    std::vector<std::string> out;
    for (const Node& n : g.nodes)
        if (keep.count(n.id)) out.push_back(n.id);
    return out;
}

HeadReplacement replace_head(const Graph& g, const std::string& after, std::int64_t classes) {
    const Node& cut = node_of(g, after);
    if (classes < 1) throw input_error("replace head: the new head needs at least one class; bind a dataset with classes");
    const Analysis a = analyze(g);
    const NodeInfo& info = a.nodes.at(after);
    if (!info.shaped)
        throw input_error("replace head: the output shape of '" + cut.name + "' is unknown; fix the errors before it");
    const std::size_t rank = info.layer.output.rank();
    if (rank != 3 && rank != 1)
        throw input_error("replace head: '" + cut.name + "' outputs " + info.layer.output.str() +
                          "; cut after a layer that outputs a feature map (height, width, channels) or a vector");

    const std::set<std::string> keep = ancestors_and_self(g, after);
    HeadReplacement r;
    for (const Node& n : g.nodes) {
        if (keep.count(n.id)) r.graph.nodes.push_back(n);
        else r.removed.push_back(n.id);
    }
    for (const Edge& e : g.edges)
        if (keep.count(e.from.node) && keep.count(e.to.node)) r.graph.edges.push_back(e);
    for (NodeGroup group : g.groups) {
        std::erase_if(group.nodes, [&](const std::string& id) { return !keep.count(id); });
        if (!group.nodes.empty()) r.graph.groups.push_back(std::move(group));
    }

    constexpr double kStep = 120;  // one card below the other
    PortRef from{after, 0};
    double y = cut.y;
    if (rank == 3) {
        const Node& pool = append_layer(r.graph, "GlobalAveragePooling2D", "head_pool", {}, cut.x, y += kStep);
        r.added.push_back(pool.id);
        r.graph.edges.push_back({from, {pool.id, 0}});
        from = {pool.id, 0};
    }
    const Node& dense = append_layer(r.graph, "Dense", "head",
                                     {{"units", classes}, {"activation", std::string("softmax")}}, cut.x, y + kStep);
    r.added.push_back(dense.id);
    r.graph.edges.push_back({from, {dense.id, 0}});
    return r;
}

}  // namespace lf
