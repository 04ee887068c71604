#include "document/set_param.h"

#include "document/undo_ids.h"

namespace lf::ui {

SetParamCommand::SetParamCommand(ProjectDocument* doc, const std::string& node, const std::string& param,
                                 std::optional<ParamValue> value)
    : DocumentCommand(doc, QObject::tr("Change %1 of %2").arg(QString::fromStdString(param), QString::fromStdString(node))),
      node_(node), param_(param), new_(std::move(value)) {
    if (const Node* n = doc->graph().find(node)) {
        auto it = n->params.find(param);
        if (it != n->params.end()) old_ = it->second;
    }
}

void SetParamCommand::apply(const std::optional<ParamValue>& value) {
    if (Node* n = graph().find(node_)) {
        if (value) n->params[param_] = *value;
        else n->params.erase(param_);
    }
    notify(DocumentChange::NodesEdited, {QString::fromStdString(node_)});
}

void SetParamCommand::redo() { apply(new_); }
void SetParamCommand::undo() { apply(old_); }
int SetParamCommand::id() const { return SetParamId; }

bool SetParamCommand::mergeWith(const QUndoCommand* other) {
    auto* o = static_cast<const SetParamCommand*>(other);
    if (o->node_ != node_ || o->param_ != param_) return false;
    new_ = o->new_;
    setObsolete(new_ == old_);
    return true;
}

}  // namespace lf::ui
