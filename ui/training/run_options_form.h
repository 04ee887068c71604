#pragma once
// The options of the next run that the project does not hold: checkpoint policy (every N steps
// or epochs, keep N, keep the best by a metric), a quick run's limit on training images, the
// device, listed from the engine's device API with the reason when no GPU is offered, and a
// folder for live TensorBoard logs (off while empty), and how many processes train (Processes:
// an Open MPI job when more than one). Like the other run options they are not saved in the
// project file, which has no place for them; Processes is kept per machine (ProcessesField).
#include <QWidget>

#include "training/training_types.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QToolButton;

namespace lf::ui {

class ProcessesField;

class RunOptionsForm : public QWidget {
    Q_OBJECT
public:
    // `mpirun`: Open MPI's launcher (findMpirun()); empty turns Processes off with the reason.
    explicit RunOptionsForm(const QString& mpirun, QWidget* parent = nullptr);

    TrainingOptions options(TrainingOptions base = {}) const;  // base with this form's values
    void setOptions(const TrainingOptions& o);  // all but Processes, which this machine's settings hold

    QSpinBox* everySteps() const { return everySteps_; }
    QSpinBox* everyEpochs() const { return everyEpochs_; }
    QSpinBox* keep() const { return keep_; }
    QComboBox* bestMetric() const { return bestMetric_; }
    QComboBox* bestMode() const { return bestMode_; }
    QComboBox* device() const { return device_; }
    QSpinBox* limitTrain() const { return limitTrain_; }
    QLineEdit* tensorboardDir() const { return tensorboardDir_; }
    QToolButton* tensorboardBrowse() const { return tensorboardBrowse_; }
    ProcessesField* processes() const { return processes_; }
    QString gpuNote() const;

Q_SIGNALS:
    void changed();

private:
    QSpinBox *everySteps_, *everyEpochs_, *keep_, *limitTrain_;
    QComboBox *bestMetric_, *bestMode_, *device_;
    QLabel* gpuNote_;
    QLineEdit* tensorboardDir_;
    QToolButton* tensorboardBrowse_;
    ProcessesField* processes_;
};

}  // namespace lf::ui
