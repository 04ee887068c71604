#pragma once
// The project's training settings as a form: optimizer and its parameters, learning rate and
// schedule, epochs, batch size, loss, metrics, early stopping, seed, memory limit, GPU memory
// policy (grow on demand or a limit), precision policy. Every edit is a SetTrainingCommand on the document (consecutive edits merge into one
// undo step); the form follows the document on undo, redo and load. A policy the run's device
// cannot run fast is shown disabled, with the engine's reason beside the choice.
#include <QWidget>

#include "layerforge/project/project.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
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
    QSpinBox* gpuMemoryLimit() const { return gpuMemoryLimit_; }  // MiB; 0 shows "Grow on demand"
    QComboBox* precision() const { return precision_; }      // item data: the policy's name
    QLabel* precisionNote() const { return precisionNote_; }  // why a policy is disabled; hidden when none is

public Q_SLOTS:
    void load();  // shows the document's settings
    // The device the next run trains on (the run options' choice): which policies it runs.
    void setDevice(const QString& device);

private:
    TrainingConfig edited() const;  // the document's settings with the form's values
    void commit();
    void updatePrecisionChoices();

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
    QSpinBox* gpuMemoryLimit_;
    QComboBox* precision_;
    QLabel* precisionNote_;
    QString device_ = QStringLiteral("cpu");
    bool loading_ = false;
};

}  // namespace lf::ui
