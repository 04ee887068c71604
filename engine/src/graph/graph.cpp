#include "layerforge/graph/graph.h"

#include <algorithm>

namespace lf {

const Node* Graph::find(const std::string& id) const {
    for (const Node& n : nodes)
        if (n.id == id) return &n;
    return nullptr;
}

Node* Graph::find(const std::string& id) {
    return const_cast<Node*>(static_cast<const Graph*>(this)->find(id));
}

std::vector<Edge> Graph::inputs_of(const std::string& id) const {
    std::vector<Edge> in;
    for (const Edge& e : edges)
        if (e.to.node == id) in.push_back(e);
    std::sort(in.begin(), in.end(), [](const Edge& a, const Edge& b) { return a.to.port < b.to.port; });
    return in;
}

const NodeGroup* Graph::group_of(const std::string& node) const {
    for (const NodeGroup& g : groups)
        if (std::find(g.nodes.begin(), g.nodes.end(), node) != g.nodes.end()) return &g;
    return nullptr;
}

}  // namespace lf
