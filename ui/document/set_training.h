#pragma once
// Replaces the training configuration and dataset binding (batch size in the status bar, the
// training settings panel). Consecutive edits merge.
#include "document/document_command.h"

namespace lf::ui {

class SetTrainingCommand : public DocumentCommand {
public:
    SetTrainingCommand(ProjectDocument* doc, TrainingConfig training, DatasetBinding dataset);
    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    void apply(const TrainingConfig& t, const DatasetBinding& d);
    TrainingConfig oldTraining_, newTraining_;
    DatasetBinding oldDataset_, newDataset_;
};

}  // namespace lf::ui
