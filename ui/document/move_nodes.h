#pragma once
// Moves nodes on the canvas (drag, arrow keys, auto-layout). Consecutive moves of the same
// set of nodes merge into one undo step; an auto-layout never merges.
#include <map>

#include <QPointF>

#include "document/document_command.h"

namespace lf::ui {

class MoveNodesCommand : public DocumentCommand {
public:
    using Positions = std::map<std::string, QPointF>;
    MoveNodesCommand(ProjectDocument* doc, Positions to, const QString& text, bool mergeable = true);
    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    void apply(const Positions& where);
    Positions from_, to_;
    bool mergeable_;
};

}  // namespace lf::ui
