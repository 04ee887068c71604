#include "document/remove_nodes.h"

#include <algorithm>
#include <set>

#include "document/change_groups.h"

namespace lf::ui {

RemoveNodesCommand::RemoveNodesCommand(ProjectDocument* doc, const std::vector<std::string>& ids,
                                       const std::vector<Edge>& edges, const QString& text)
    : DocumentCommand(doc, text) {
    const Graph& g = doc->graph();
    std::set<std::string> gone(ids.begin(), ids.end());
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (gone.count(g.nodes[i].id)) nodes_.emplace_back(i, g.nodes[i]);
    for (std::size_t i = 0; i < g.edges.size(); ++i) {
        const Edge& e = g.edges[i];
        bool listed = std::find(edges.begin(), edges.end(), e) != edges.end();
        if (listed || gone.count(e.from.node) || gone.count(e.to.node)) edges_.emplace_back(i, e);
    }
    oldGroups_ = g.groups;
    newGroups_ = withoutNodes(g.groups, ids);
}

template <class T>
static void eraseAt(std::vector<T>& v, const std::vector<std::pair<std::size_t, T>>& at) {
    for (auto it = at.rbegin(); it != at.rend(); ++it) v.erase(v.begin() + std::ptrdiff_t(it->first));
}

template <class T>
static void insertAt(std::vector<T>& v, const std::vector<std::pair<std::size_t, T>>& at) {
    for (const auto& [i, item] : at) v.insert(v.begin() + std::ptrdiff_t(i), item);
}

void RemoveNodesCommand::redo() {
    eraseAt(graph().edges, edges_);
    eraseAt(graph().nodes, nodes_);
    graph().groups = newGroups_;
    notify(DocumentChange::GraphChanged);
}

void RemoveNodesCommand::undo() {
    insertAt(graph().nodes, nodes_);
    insertAt(graph().edges, edges_);
    graph().groups = oldGroups_;
    notify(DocumentChange::GraphChanged);
}

}  // namespace lf::ui
