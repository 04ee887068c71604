#include "training/training_settings_form.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLineEdit>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include "document/project_document.h"
#include "document/set_training.h"
#include "layerforge/devices/devices.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/optimizer.h"
#include "training/param_text.h"

namespace lf::ui {

namespace {

QStringList qlist(const std::vector<std::string>& v) {
    QStringList l;
    for (const std::string& s : v) l << QString::fromStdString(s);
    return l;
}

QSpinBox* spin(int lo, int hi) {
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setKeyboardTracking(false);
    return s;
}

const NamedConfig* findCallback(const TrainingConfig& t, const std::string& type) {
    for (const NamedConfig& c : t.callbacks)
        if (c.type == type) return &c;
    return nullptr;
}

}  // namespace

TrainingSettingsForm::TrainingSettingsForm(ProjectDocument* doc, QWidget* parent)
    : QWidget(parent), doc_(doc), optimizer_(new QComboBox), learningRate_(new QDoubleSpinBox),
      optimizerParams_(new QLineEdit), schedule_(new QComboBox), scheduleParams_(new QLineEdit),
      epochs_(spin(1, 100000)), batch_(spin(1, 65536)), loss_(new QComboBox), metrics_(new QLineEdit),
      early_(new QGroupBox(tr("Early stopping"))), monitor_(new QComboBox), patience_(spin(0, 10000)),
      restoreBest_(new QCheckBox(tr("Restore the best weights"))), seed_(spin(0, INT32_MAX)),
      memoryLimit_(spin(0, INT32_MAX)), gpuMemoryLimit_(spin(0, INT32_MAX)), precision_(new QComboBox), precisionNote_(new QLabel) {
    optimizer_->addItems(qlist(optimizer_types()));
    learningRate_->setDecimals(6);
    learningRate_->setRange(1e-6, 10.0);
    learningRate_->setSingleStep(1e-4);
    learningRate_->setKeyboardTracking(false);
    optimizerParams_->setPlaceholderText(tr("e.g. momentum=0.9 nesterov=true"));
    schedule_->addItems({"constant", "step_decay", "exponential_decay", "cosine_decay"});
    scheduleParams_->setPlaceholderText(tr("e.g. decay_steps=1000 decay_rate=0.9"));
    loss_->addItems(qlist(loss_types()));
    metrics_->setPlaceholderText(tr("accuracy, top3_accuracy"));
    monitor_->setEditable(true);
    monitor_->addItems({"val_loss", "val_accuracy", "loss", "accuracy"});
    early_->setCheckable(true);
    memoryLimit_->setSuffix(tr(" MB"));
    memoryLimit_->setSpecialValueText(tr("No limit"));
    memoryLimit_->setSingleStep(256);
    memoryLimit_->setToolTip(tr("A run whose memory estimate exceeds this stops before it allocates"));
    // The tutorial's two GPU memory policies: tf.config.experimental.set_memory_growth and a
    // logical device's memory_limit.
    gpuMemoryLimit_->setSuffix(tr(" MiB"));
    gpuMemoryLimit_->setSpecialValueText(tr("Grow on demand"));
    gpuMemoryLimit_->setSingleStep(1024);
    gpuMemoryLimit_->setToolTip(tr("Runs on a GPU: \"Grow on demand\" takes device memory as the run needs it; a "
                                   "limit caps what the run may hold on the device, and a plan that needs more stops "
                                   "before it starts, saying which batch size fits. Runs on the CPU ignore it."));
    for (Precision p : kPrecisions) precision_->addItem(to_string(p), QString(to_string(p)));  // Keras' names
    precision_->setToolTip(tr("mixed_bfloat16 / mixed_float16: the heavy layers compute in 16 bits and activations "
                              "are stored in 16 bits; weights, optimizer state, loss and metrics stay float32. "
                              "mixed_float16 (GPUs) scales the loss dynamically so small gradients survive"));
    precisionNote_->setWordWrap(true);
    updatePrecisionChoices();

    auto* earlyForm = new QFormLayout(early_);
    earlyForm->addRow(tr("Monitor"), monitor_);
    earlyForm->addRow(tr("Patience (epochs)"), patience_);
    earlyForm->addRow(restoreBest_);

    auto* form = new QFormLayout;
    form->addRow(tr("Optimizer"), optimizer_);
    form->addRow(tr("Learning rate"), learningRate_);
    form->addRow(tr("Optimizer parameters"), optimizerParams_);
    form->addRow(tr("Schedule"), schedule_);
    form->addRow(tr("Schedule parameters"), scheduleParams_);
    form->addRow(tr("Epochs"), epochs_);
    form->addRow(tr("Batch size"), batch_);
    form->addRow(tr("Loss"), loss_);
    form->addRow(tr("Metrics"), metrics_);
    form->addRow(tr("Seed"), seed_);
    form->addRow(tr("Memory limit"), memoryLimit_);
    form->addRow(tr("GPU memory"), gpuMemoryLimit_);
    form->addRow(tr("Precision"), precision_);
    form->addRow(QString(), precisionNote_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(early_);

    for (QComboBox* c : {optimizer_, schedule_, loss_, precision_}) connect(c, &QComboBox::currentIndexChanged, this, &TrainingSettingsForm::commit);
    connect(precision_, &QComboBox::currentIndexChanged, this, &TrainingSettingsForm::updatePrecisionChoices);
    connect(monitor_, &QComboBox::currentTextChanged, this, &TrainingSettingsForm::commit);
    for (QSpinBox* s : {epochs_, batch_, patience_, seed_, memoryLimit_, gpuMemoryLimit_}) connect(s, &QSpinBox::valueChanged, this, &TrainingSettingsForm::commit);
    connect(learningRate_, &QDoubleSpinBox::valueChanged, this, &TrainingSettingsForm::commit);
    for (QLineEdit* e : {optimizerParams_, scheduleParams_, metrics_}) connect(e, &QLineEdit::editingFinished, this, &TrainingSettingsForm::commit);
    connect(early_, &QGroupBox::toggled, this, &TrainingSettingsForm::commit);
    connect(restoreBest_, &QCheckBox::toggled, this, &TrainingSettingsForm::commit);
    connect(doc_, &ProjectDocument::changed, this, [this](const DocumentChange& c) {
        if (c.kind == DocumentChange::Reset || c.kind == DocumentChange::SettingsChanged) load();
    });
    load();
}

void TrainingSettingsForm::load() {
    loading_ = true;
    const TrainingConfig& t = doc_->project().training;
    optimizer_->setCurrentText(QString::fromStdString(t.optimizer.type));
    auto lr = t.optimizer.params.find("learning_rate");
    if (lr != t.optimizer.params.end()) {
        if (auto* d = std::get_if<double>(&lr->second)) learningRate_->setValue(*d);
        else if (auto* i = std::get_if<std::int64_t>(&lr->second)) learningRate_->setValue(double(*i));
    }
    optimizerParams_->setText(paramsToText(t.optimizer.params, {"learning_rate"}));
    schedule_->setCurrentText(QString::fromStdString(t.schedule.type));
    scheduleParams_->setText(paramsToText(t.schedule.params));
    epochs_->setValue(int(t.epochs));
    batch_->setValue(int(t.batch_size));
    loss_->setCurrentText(QString::fromStdString(t.loss));
    metrics_->setText(qlist(t.metrics).join(", "));
    seed_->setValue(int(t.seed));
    memoryLimit_->setValue(int(std::min<std::int64_t>(t.memory_limit_mb, INT32_MAX)));
    gpuMemoryLimit_->setValue(int(std::min<std::int64_t>(t.gpu_memory_limit_mib, INT32_MAX)));
    precision_->setCurrentIndex(precision_->findData(QString(to_string(t.precision))));
    const NamedConfig* es = findCallback(t, "EarlyStopping");
    early_->setChecked(es != nullptr);
    const Params esParams = es ? es->params : Params{};
    auto text = [&](const char* k, const QString& d) {
        auto it = esParams.find(k);
        return it != esParams.end() && std::holds_alternative<std::string>(it->second)
                   ? QString::fromStdString(std::get<std::string>(it->second)) : d;
    };
    monitor_->setCurrentText(text("monitor", "val_loss"));
    auto p = esParams.find("patience");
    patience_->setValue(p != esParams.end() && std::holds_alternative<std::int64_t>(p->second) ? int(std::get<std::int64_t>(p->second)) : 0);
    auto rb = esParams.find("restore_best_weights");
    restoreBest_->setChecked(rb != esParams.end() && std::holds_alternative<bool>(rb->second) && std::get<bool>(rb->second));
    loading_ = false;
}

TrainingConfig TrainingSettingsForm::edited() const {
    TrainingConfig t = doc_->project().training;
    const std::string type = optimizer_->currentText().toStdString();
    // Another optimizer or schedule takes other parameters: its own defaults, not the old ones.
    t.optimizer.params = type == t.optimizer.type ? paramsFromText(optimizerParams_->text()) : Params{};
    t.optimizer.type = type;
    t.optimizer.params["learning_rate"] = learningRate_->value();
    const std::string schedule = schedule_->currentText().toStdString();
    t.schedule = {schedule, schedule == t.schedule.type ? paramsFromText(scheduleParams_->text()) : Params{}};
    t.epochs = epochs_->value();
    t.batch_size = batch_->value();
    t.loss = loss_->currentText().toStdString();
    t.metrics.clear();
    for (const QString& m : metrics_->text().split(',', Qt::SkipEmptyParts))
        if (!m.trimmed().isEmpty()) t.metrics.push_back(m.trimmed().toStdString());
    t.seed = seed_->value();
    t.memory_limit_mb = memoryLimit_->value();
    t.gpu_memory_limit_mib = gpuMemoryLimit_->value();
    t.precision = parse_precision(precision_->currentData().toString().toStdString()).value_or(t.precision);
    std::erase_if(t.callbacks, [](const NamedConfig& c) { return c.type == "EarlyStopping"; });
    if (early_->isChecked()) {
        NamedConfig es{"EarlyStopping", {}};
        if (const NamedConfig* old = findCallback(doc_->project().training, "EarlyStopping")) es.params = old->params;
        es.params["monitor"] = monitor_->currentText().toStdString();
        es.params["patience"] = std::int64_t(patience_->value());
        es.params["restore_best_weights"] = restoreBest_->isChecked();
        t.callbacks.push_back(es);
    }
    return t;
}

void TrainingSettingsForm::setDevice(const QString& device) {
    if (device == device_) return;
    device_ = device;
    updatePrecisionChoices();
}

// Each policy the device would only emulate is disabled with the engine's reason as its tooltip.
// The reasons are also shown beside the choice when no mixed policy is left or the selected one
// is disabled (mixed_float16 is disabled on every CPU: that alone is no news). The project's
// policy stays selected even then: Start reports the refusal.
void TrainingSettingsForm::updatePrecisionChoices() {
    auto* items = qobject_cast<QStandardItemModel*>(precision_->model());
    QStringList notes;
    bool mixed_left = false, selected_disabled = false;
    for (int i = 0; i < precision_->count(); ++i) {
        const Precision p = *parse_precision(precision_->itemData(i).toString().toStdString());
        std::string reason;
        try {
            reason = precision_unsupported(p, device_.toStdString());
        } catch (const std::exception& e) {  // a device no backend has any more
            reason = e.what();
        }
        items->item(i)->setEnabled(reason.empty());
        items->item(i)->setToolTip(reason.empty() ? QString() : QString::fromStdString(reason));
        mixed_left = mixed_left || (reason.empty() && p != Precision::Float32);
        selected_disabled = selected_disabled || (!reason.empty() && i == precision_->currentIndex());
        if (!reason.empty())
            notes << tr("%1 is not available on %2: %3").arg(precision_->itemText(i), device_, QString::fromStdString(reason));
    }
    const bool explain = !notes.isEmpty() && (!mixed_left || selected_disabled);
    precisionNote_->setText(explain ? notes.join('\n') : QString());
    precisionNote_->setVisible(explain);
}

void TrainingSettingsForm::commit() {
    if (loading_) return;
    TrainingConfig t = edited();
    if (t == doc_->project().training) return;
    doc_->push(new SetTrainingCommand(doc_, std::move(t), doc_->project().dataset));
}

}  // namespace lf::ui
