#include "document/rename_node.h"

namespace lf::ui {

RenameNodeCommand::RenameNodeCommand(ProjectDocument* doc, const std::string& node, const std::string& name)
    : DocumentCommand(doc, QObject::tr("Rename %1 to %2").arg(QString::fromStdString(node), QString::fromStdString(name))),
      node_(node), new_(name) {
    if (const Node* n = doc->graph().find(node)) old_ = n->name;
}

void RenameNodeCommand::apply(const std::string& name) {
    if (Node* n = graph().find(node_)) n->name = name;
    notify(DocumentChange::NodesEdited, {QString::fromStdString(node_)});
}

void RenameNodeCommand::redo() { apply(new_); }
void RenameNodeCommand::undo() { apply(old_); }

}  // namespace lf::ui
