#include "document/connect_ports.h"

namespace lf::ui {

ConnectPortsCommand::ConnectPortsCommand(ProjectDocument* doc, Edge edge)
    : DocumentCommand(doc, QObject::tr("Connect %1 to %2")
                               .arg(QString::fromStdString(edge.from.node), QString::fromStdString(edge.to.node))),
      edge_(std::move(edge)) {
    const auto& edges = doc->graph().edges;
    for (std::size_t i = 0; i < edges.size(); ++i)
        if (edges[i].to == edge_.to) replaced_ = {i, edges[i]};
}

void ConnectPortsCommand::redo() {
    auto& edges = graph().edges;
    if (replaced_) edges.erase(edges.begin() + std::ptrdiff_t(replaced_->first));
    edges.push_back(edge_);
    notify(DocumentChange::GraphChanged, {QString::fromStdString(edge_.to.node)});
}

void ConnectPortsCommand::undo() {
    auto& edges = graph().edges;
    edges.pop_back();
    if (replaced_) edges.insert(edges.begin() + std::ptrdiff_t(replaced_->first), replaced_->second);
    notify(DocumentChange::GraphChanged, {QString::fromStdString(edge_.to.node)});
}

}  // namespace lf::ui
