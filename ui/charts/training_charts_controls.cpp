// The charts' toolbar: x axis, smoothing, log scales, the Runs overlay menu and the exports.
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

#include "charts/training_charts.h"
#include "layerforge/store/run_store.h"

namespace lf::ui {

// Two rows, so the toolbar does not set the Train page's minimum width.
void TrainingCharts::buildToolbar(QVBoxLayout* layout) {
    auto* bar = new QHBoxLayout;
    titleLabel_ = new QLabel(this);
    titleLabel_->setObjectName(QStringLiteral("chartsTitle"));
    titleLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // a long run title elides
    bar->addWidget(titleLabel_, 1);

    bar->addWidget(new QLabel(tr("X axis:"), this));
    xAxisCombo_ = new QComboBox(this);
    xAxisCombo_->addItems({tr("Step"), tr("Epoch"), tr("Wall time")});  // in XAxisMode order
    connect(xAxisCombo_, &QComboBox::currentIndexChanged, this, [this](int i) { setXAxisMode(XAxisMode(i)); });
    bar->addWidget(xAxisCombo_);

    bar->addWidget(new QLabel(tr("Smoothing:"), this));
    smoothingSlider_ = new QSlider(Qt::Horizontal, this);
    smoothingSlider_->setRange(0, int(kMaxSmoothing * 1000));
    smoothingSlider_->setMaximumWidth(160);
    smoothingSlider_->setToolTip(tr("Exponential moving average, debiased as in TensorBoard"));
    smoothingValue_ = new QLabel(QStringLiteral("0.000"), this);
    connect(smoothingSlider_, &QSlider::valueChanged, this, [this](int v) { setSmoothing(v / 1000.0); });
    bar->addWidget(smoothingSlider_);
    bar->addWidget(smoothingValue_);
    layout->addLayout(bar);
    bar = new QHBoxLayout;

    logX_ = new QCheckBox(tr("Log x"), this);
    logY_ = new QCheckBox(tr("Log y"), this);
    connect(logX_, &QCheckBox::toggled, this, [this](bool on) { setLogScale(Qt::Horizontal, on); });
    connect(logY_, &QCheckBox::toggled, this, [this](bool on) { setLogScale(Qt::Vertical, on); });
    bar->addWidget(logX_);
    bar->addWidget(logY_);

    auto* runs = new QToolButton(this);
    runs->setText(tr("Compare runs"));
    runs->setToolTip(tr("Overlay earlier runs from the project's run store"));
    runs->setPopupMode(QToolButton::InstantPopup);
    runsMenu_ = new QMenu(runs);
    runs->setMenu(runsMenu_);
    connect(runsMenu_, &QMenu::aboutToShow, this, &TrainingCharts::refreshRunsMenu);
    bar->addWidget(runs);

    auto* png = new QToolButton(this);
    png->setText(tr("Export PNG..."));
    connect(png, &QToolButton::clicked, this, &TrainingCharts::exportPngDialog);
    auto* csv = new QToolButton(this);
    csv->setText(tr("Export CSV..."));
    connect(csv, &QToolButton::clicked, this, &TrainingCharts::exportCsvDialog);
    bar->addWidget(png);
    bar->addWidget(csv);
    bar->addStretch(1);
    layout->addLayout(bar);

    statusLabel_ = new QLabel(this);
    statusLabel_->setWordWrap(true);
    statusLabel_->setStyleSheet(QStringLiteral("color: #b00020"));
    statusLabel_->setVisible(false);
    layout->addWidget(statusLabel_);
}

void TrainingCharts::refreshRunsMenu() {
    runsMenu_->clear();
    auto disabled = [this](const QString& text) { runsMenu_->addAction(text)->setEnabled(false); };
    if (storePath_.isEmpty()) return disabled(tr("No run store for this project yet"));
    std::vector<RunInfo> runs;
    try {
        RunStore store(storePath_.toStdString(), false);
        runs = store.runs();
    } catch (const std::exception& e) {
        return disabled(QString::fromUtf8(e.what()));
    }
    if (runs.empty()) return disabled(tr("No runs recorded yet"));
    const QList<qint64> shown = overlayRuns();
    for (const RunInfo& r : runs) {
        const QString text = tr("#%1 %2 (%3, %4 steps)")
                                 .arg(r.id)
                                 .arg(QString::fromStdString(r.name), QString(to_string(r.status)))
                                 .arg(r.last_step);
        QAction* action = runsMenu_->addAction(text);
        action->setCheckable(true);
        action->setChecked(shown.contains(r.id));
        action->setData(qint64(r.id));
        connect(action, &QAction::toggled, this, [this, id = qint64(r.id)](bool on) {
            if (on) addOverlay(id);
            else removeOverlay(id);
        });
    }
}

void TrainingCharts::exportPngDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export charts as PNG"), QString(), tr("PNG images (*.png)"));
    QString error;
    if (!path.isEmpty() && !exportPng(path, &error)) showError(error);
}

void TrainingCharts::exportCsvDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export curves as CSV"), QString(), tr("CSV files (*.csv)"));
    QString error;
    if (!path.isEmpty() && !exportCsv(path, &error)) showError(error);
}

}  // namespace lf::ui
