#include "document/move_nodes.h"

#include "document/undo_ids.h"

namespace lf::ui {

MoveNodesCommand::MoveNodesCommand(ProjectDocument* doc, Positions to, const QString& text, bool mergeable)
    : DocumentCommand(doc, text), to_(std::move(to)), mergeable_(mergeable) {
    for (const auto& [id, pos] : to_)
        if (const Node* n = doc->graph().find(id)) from_[id] = QPointF(n->x, n->y);
}

void MoveNodesCommand::apply(const Positions& where) {
    QStringList ids;
    for (const auto& [id, pos] : where)
        if (Node* n = graph().find(id)) {
            n->x = pos.x();
            n->y = pos.y();
            ids << QString::fromStdString(id);
        }
    notify(DocumentChange::NodesMoved, ids);
}

void MoveNodesCommand::redo() { apply(to_); }
void MoveNodesCommand::undo() { apply(from_); }

int MoveNodesCommand::id() const { return mergeable_ ? MoveNodesId : -1; }

bool MoveNodesCommand::mergeWith(const QUndoCommand* other) {
    auto* o = static_cast<const MoveNodesCommand*>(other);
    if (o->to_.size() != to_.size()) return false;
    for (const auto& [id, pos] : o->to_)
        if (!to_.count(id)) return false;
    to_ = o->to_;
    return true;
}

}  // namespace lf::ui
