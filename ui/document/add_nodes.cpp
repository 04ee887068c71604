#include "document/add_nodes.h"

#include <algorithm>

namespace lf::ui {

QStringList toIds(const std::vector<std::string>& ids) {
    QStringList out;
    for (const std::string& id : ids) out << QString::fromStdString(id);
    return out;
}

AddNodesCommand::AddNodesCommand(ProjectDocument* doc, Graph fragment, const QString& text)
    : DocumentCommand(doc, text), fragment_(std::move(fragment)) {}

void AddNodesCommand::redo() {
    Graph& g = graph();
    g.nodes.insert(g.nodes.end(), fragment_.nodes.begin(), fragment_.nodes.end());
    g.edges.insert(g.edges.end(), fragment_.edges.begin(), fragment_.edges.end());
    notify(DocumentChange::GraphChanged);
}

void AddNodesCommand::undo() {
    Graph& g = graph();
    g.nodes.resize(g.nodes.size() - fragment_.nodes.size());
    g.edges.resize(g.edges.size() - fragment_.edges.size());
    notify(DocumentChange::GraphChanged);
}

}  // namespace lf::ui
