#pragma once
// The project's training settings as a form: optimizer and its parameters, learning rate and
// schedule, epochs, batch size, loss, metrics, early stopping, seed, memory limit. Every edit is a
// SetTrainingCommand on the document (consecutive edits merge into one undo step); the form
// follows the document on undo, redo and load.
#include <QWidget>

#include "layerforge/project/project.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLineEdit;
class QSpinBox;

namespace lf::ui {

class ProjectDocument;

class TrainingSettingsForm : public QWidget {
    Q_OBJECT
public:
    explicit TrainingSettingsForm(ProjectDocument* doc, QWidget* parent = nullptr);

    // The widgets, by what they edit (tests drive them like a user would).
    QComboBox* optimizer() const { return optimizer_; }
    QDoubleSpinBox* learningRate() const { return learningRate_; }
    QLineEdit* optimizerParams() const { return optimizerParams_; }
    QComboBox* schedule() const { return schedule_; }
    QLineEdit* scheduleParams() const { return scheduleParams_; }
    QSpinBox* epochs() const { return epochs_; }
    QSpinBox* batchSize() const { return batch_; }
    QComboBox* loss() const { return loss_; }
    QLineEdit* metrics() const { return metrics_; }
    QGroupBox* earlyStopping() const { return early_; }
    QComboBox* earlyMonitor() const { return monitor_; }
    QSpinBox* earlyPatience() const { return patience_; }
    QCheckBox* earlyRestoreBest() const { return restoreBest_; }
    QSpinBox* seed() const { return seed_; }
    QSpinBox* memoryLimit() const { return memoryLimit_; }  // MB; 0 shows "No limit"

public Q_SLOTS:
    void load();  // shows the document's settings

private:
    TrainingConfig edited() const;  // the document's settings with the form's values
    void commit();

    ProjectDocument* doc_;
    QComboBox* optimizer_;
    QDoubleSpinBox* learningRate_;
    QLineEdit* optimizerParams_;
    QComboBox* schedule_;
    QLineEdit* scheduleParams_;
    QSpinBox* epochs_;
    QSpinBox* batch_;
    QComboBox* loss_;
    QLineEdit* metrics_;
    QGroupBox* early_;
    QComboBox* monitor_;
    QSpinBox* patience_;
    QCheckBox* restoreBest_;
    QSpinBox* seed_;
    QSpinBox* memoryLimit_;
    bool loading_ = false;
};

}  // namespace lf::ui
