#include "document/set_trainable.h"

namespace lf::ui {

SetTrainableCommand::SetTrainableCommand(ProjectDocument* doc, const std::map<std::string, bool>& trainable,
                                         const QString& text)
    : DocumentCommand(doc, text) {
    for (const auto& [id, flag] : trainable)
        if (const Node* n = doc->graph().find(id); n && n->trainable != flag) old_[id] = n->trainable, new_[id] = flag;
}

void SetTrainableCommand::apply(const std::map<std::string, bool>& flags) {
    QStringList ids;
    for (const auto& [id, flag] : flags)
        if (Node* n = graph().find(id)) n->trainable = flag, ids << QString::fromStdString(id);
    notify(DocumentChange::NodesEdited, ids);  // parameter counts change: trainable vs non-trainable
}

void SetTrainableCommand::redo() { apply(new_); }
void SetTrainableCommand::undo() { apply(old_); }

}  // namespace lf::ui
