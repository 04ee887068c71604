#include "document/set_training.h"

#include "document/undo_ids.h"

namespace lf::ui {

SetTrainingCommand::SetTrainingCommand(ProjectDocument* doc, TrainingConfig training, DatasetBinding dataset)
    : DocumentCommand(doc, QObject::tr("Change training settings")),
      oldTraining_(doc->project().training), newTraining_(std::move(training)),
      oldDataset_(doc->project().dataset), newDataset_(std::move(dataset)) {}

void SetTrainingCommand::apply(const TrainingConfig& t, const DatasetBinding& d) {
    project().training = t;
    project().dataset = d;
    notify(DocumentChange::SettingsChanged);
}

void SetTrainingCommand::redo() { apply(newTraining_, newDataset_); }
void SetTrainingCommand::undo() { apply(oldTraining_, oldDataset_); }
int SetTrainingCommand::id() const { return SetTrainingId; }

bool SetTrainingCommand::mergeWith(const QUndoCommand* other) {
    auto* o = static_cast<const SetTrainingCommand*>(other);
    newTraining_ = o->newTraining_;
    newDataset_ = o->newDataset_;
    setObsolete(newTraining_ == oldTraining_ && newDataset_ == oldDataset_);
    return true;
}

}  // namespace lf::ui
