#include "training/run_options_form.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>

#include "layerforge/devices/devices.h"
#include "training/memory_bar.h"
#include "training/processes_field.h"

namespace lf::ui {

RunOptionsForm::RunOptionsForm(const QString& mpirun, QWidget* parent)
    : QWidget(parent), everySteps_(new QSpinBox), everyEpochs_(new QSpinBox), keep_(new QSpinBox),
      limitTrain_(new QSpinBox), bestMetric_(new QComboBox), bestMode_(new QComboBox), device_(new QComboBox), gpuNote_(new QLabel),
      tensorboardDir_(new QLineEdit), tensorboardBrowse_(new QToolButton), processes_(new ProcessesField(mpirun)) {
    everySteps_->setRange(0, 10000000);
    everySteps_->setSpecialValueText(tr("off"));
    everyEpochs_->setRange(0, 100000);
    everyEpochs_->setSpecialValueText(tr("off"));
    keep_->setRange(1, 1000);
    limitTrain_->setRange(0, 100000000);
    limitTrain_->setSpecialValueText(tr("all"));
    limitTrain_->setSuffix(tr(" images"));
    limitTrain_->setToolTip(tr("Train on only the first N training images, to try a design in seconds "
                               "(as layerforge-cli train --limit-train N)"));
    bestMetric_->setEditable(true);
    bestMetric_->addItems({QString(), "val_loss", "val_accuracy", "loss", "accuracy"});
    bestMetric_->lineEdit()->setPlaceholderText(tr("val_loss (or loss without validation)"));
    bestMode_->addItems({"auto", "min", "max"});

    const DeviceList devices = list_devices();
    for (const DeviceInfo& d : devices.devices)
        device_->addItem(tr("%1 — %2, %3").arg(QString::fromStdString(d.id), QString::fromStdString(d.name),
                                               byteText(d.total_memory)),
                         QString::fromStdString(d.id));
    gpuNote_->setText(devices.gpu_unavailable.empty() ? QString()
                                                      : tr("GPU: %1").arg(QString::fromStdString(devices.gpu_unavailable)));
    gpuNote_->setVisible(!devices.gpu_unavailable.empty());
    gpuNote_->setWordWrap(true);

    tensorboardDir_->setPlaceholderText(tr("off"));
    tensorboardDir_->setClearButtonEnabled(true);
    tensorboardDir_->setToolTip(tr("Write TensorBoard event files while training, one sub-folder per run (as "
                                   "layerforge-cli train --tensorboard DIR); view them with tensorboard --logdir DIR"));
    tensorboardBrowse_->setText(tr("Browse…"));
    connect(tensorboardBrowse_, &QToolButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("TensorBoard log folder"), tensorboardDir_->text());
        if (!dir.isEmpty()) tensorboardDir_->setText(dir);
    });
    auto* tensorboard = new QHBoxLayout;
    tensorboard->setContentsMargins(0, 0, 0, 0);
    tensorboard->addWidget(tensorboardDir_, 1);
    tensorboard->addWidget(tensorboardBrowse_);

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Checkpoint every N steps"), everySteps_);
    form->addRow(tr("Checkpoint every N epochs"), everyEpochs_);
    form->addRow(tr("Keep newest"), keep_);
    form->addRow(tr("Keep best by"), bestMetric_);
    form->addRow(tr("Best is"), bestMode_);
    form->addRow(tr("Quick run: use"), limitTrain_);
    form->addRow(tr("Device"), device_);
    form->addRow(QString(), gpuNote_);
    form->addRow(tr("TensorBoard logs"), tensorboard);
    form->addRow(tr("Processes"), processes_);
    setOptions(TrainingOptions{});

    for (QSpinBox* s : {everySteps_, everyEpochs_, keep_, limitTrain_}) connect(s, &QSpinBox::valueChanged, this, &RunOptionsForm::changed);
    for (QComboBox* c : {bestMode_, device_}) connect(c, &QComboBox::currentIndexChanged, this, &RunOptionsForm::changed);
    connect(bestMetric_, &QComboBox::currentTextChanged, this, &RunOptionsForm::changed);
    connect(tensorboardDir_, &QLineEdit::textChanged, this, &RunOptionsForm::changed);
    connect(processes_, &ProcessesField::changed, this, &RunOptionsForm::changed);
}

QString RunOptionsForm::gpuNote() const { return gpuNote_->text(); }

TrainingOptions RunOptionsForm::options(TrainingOptions o) const {
    o.checkpointEverySteps = everySteps_->value();
    o.checkpointEveryEpochs = everyEpochs_->value();
    o.keep = keep_->value();
    o.bestMetric = bestMetric_->currentText().trimmed();
    o.bestMode = bestMode_->currentText();
    o.device = device_->currentData().toString();
    o.limitTrain = limitTrain_->value();
    o.tensorboardDir = tensorboardDir_->text().trimmed();
    o.processes = processes_->processes();
    o.hostfile = processes_->hostfile();
    return o;
}

void RunOptionsForm::setOptions(const TrainingOptions& o) {
    QSignalBlocker b1(everySteps_), b2(everyEpochs_), b3(keep_), b4(bestMetric_), b5(bestMode_), b6(device_),
        b7(limitTrain_), b8(tensorboardDir_);
    everySteps_->setValue(int(o.checkpointEverySteps));
    everyEpochs_->setValue(int(o.checkpointEveryEpochs));
    keep_->setValue(int(o.keep));
    bestMetric_->setCurrentText(o.bestMetric);
    bestMode_->setCurrentText(o.bestMode);
    device_->setCurrentIndex(std::max(0, device_->findData(o.device)));
    limitTrain_->setValue(int(std::min<qint64>(o.limitTrain, limitTrain_->maximum())));
    tensorboardDir_->setText(o.tensorboardDir);
}

}  // namespace lf::ui
