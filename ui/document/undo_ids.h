#pragma once
// Merge ids of the undo commands (QUndoCommand::id): commands with the same id may merge.
namespace lf::ui {

enum UndoId {
    MoveNodesId = 1,  // consecutive moves of the same nodes become one step
    SetParamId,       // consecutive edits of the same parameter (spin box, slider) become one step
    SetTrainingId,    // consecutive edits of the training settings
};

}  // namespace lf::ui
