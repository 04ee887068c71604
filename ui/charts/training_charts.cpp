#include "charts/training_charts.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <sstream>

#include "charts/chart_csv.h"
#include "charts/run_curves.h"
#include "widgets/scrollable.h"
#include "layerforge/core/error.h"
#include "layerforge/store/run_store.h"

namespace lf::ui {

namespace {

constexpr int kRedrawIntervalMs = 33;  // at most ~30 redraws a second
const char* const kValPrefix = "val_";

QString familyOf(const std::string& series) {
    const bool val = series.rfind(kValPrefix, 0) == 0;
    return QString::fromStdString(val ? series.substr(4) : series);
}

bool isValidation(const std::string& series) { return series.rfind(kValPrefix, 0) == 0; }

}  // namespace

CurveSeries& TrainingCharts::RunCurves::curve(const std::string& name, double smoothing) {
    for (auto& [n, c] : curves)
        if (n == name) return *c;
    curves.emplace_back(name, std::make_shared<CurveSeries>(smoothing));
    return *curves.back().second;
}

const CurveSeries* TrainingCharts::RunCurves::find(const std::string& name) const {
    for (const auto& [n, c] : curves)
        if (n == name) return c.get();
    return nullptr;
}

TrainingCharts::TrainingCharts(QWidget* parent) : QWidget(parent), redrawTimer_(new QTimer(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    buildToolbar(layout);
    // The plots scroll once they no longer fit at their minimum height (loss, accuracy, lr, ...).
    auto* plots = new QWidget;
    plotsLayout_ = new QVBoxLayout(plots);
    plotsLayout_->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scrollable(plots), 1);
    redrawTimer_->setSingleShot(true);
    redrawTimer_->setInterval(kRedrawIntervalMs);
    connect(redrawTimer_, &QTimer::timeout, this, &TrainingCharts::refresh);
    plotFor(QStringLiteral("loss"));
    plotFor(QStringLiteral("accuracy"));
}

TrainingCharts::~TrainingCharts() = default;

void TrainingCharts::beginLiveRun(const QString& title) {
    liveTitle_ = title;
    titleLabel_->setText(title);
    live_.curves.clear();
    secondsOffset_ = 0;
    showError(QString());
    markAllDirty();
}

void TrainingCharts::append(const std::string& name, const CurvePoint& p) {
    live_.curve(name, smoothingFor(name)).append({p.step, p.epoch, p.seconds + secondsOffset_, p.value});
    markDirty(familyOf(name));
}

void TrainingCharts::addStep(std::int64_t step, double epoch, double seconds, const lf::Metrics& m) {
    for (const auto& [name, value] : m) append(name, {double(step), epoch, seconds, value});
}

void TrainingCharts::addEpoch(std::int64_t step, double epoch, double seconds, const lf::Metrics& m) {
    for (const auto& [name, value] : m)
        if (isValidation(name)) append(name, {double(step), epoch, seconds, value});
}

void TrainingCharts::addTrainStep(const lf::TrainEvent& e) {
    const double inEpoch = double(e.step - (e.epoch - 1) * e.steps_per_epoch);
    const double epoch = e.steps_per_epoch > 0 ? double(e.epoch - 1) + inEpoch / double(e.steps_per_epoch) : double(e.epoch);
    addStep(e.step, epoch, e.elapsed_seconds, e.metrics);
    append("lr", {double(e.step), epoch, e.elapsed_seconds, e.learning_rate});
}

void TrainingCharts::setStorePath(const QString& runStorePath) {
    if (runStorePath == storePath_) return;
    storePath_ = runStorePath;
    const QList<qint64> stale = overlayRuns();  // those runs belong to the previous store
    for (qint64 id : stale) removeOverlay(id);
}

const CurveSeries* TrainingCharts::findSeries(const QString& series) const {
    const std::string name = series.toStdString();
    if (name.rfind("run", 0) == 0 && name.find('/') != std::string::npos) {
        const std::size_t slash = name.find('/');
        bool ok = false;
        const qint64 id = QString::fromStdString(name.substr(3, slash - 3)).toLongLong(&ok);
        const auto it = overlays_.find(id);
        if (ok && it != overlays_.end()) return it->second.find(name.substr(slash + 1));
    }
    return live_.find(name);
}

int TrainingCharts::pointCount(const QString& series) const {
    const CurveSeries* c = findSeries(series);
    return c ? int(c->size()) : 0;
}

bool TrainingCharts::loadRun(qint64 runId, RunCurves& into, const QString& purpose, QString* error) {
    try {
        RunStore store(storePath_.toStdString(), false);
        for (auto& [name, points] : loadRunCurves(store, runId)) {
            CurveSeries& c = into.curve(name, smoothingFor(name));
            for (const CurvePoint& p : points) c.append(p);
            markDirty(familyOf(name));
        }
        return true;
    } catch (const std::exception& e) {
        const QString message = purpose.arg(runId) + QStringLiteral(": ") + QString::fromUtf8(e.what());
        if (error) *error = message;
        showError(message);
        return false;
    }
}

bool TrainingCharts::addOverlay(qint64 runId, QString* error) {
    RunCurves run;
    run.label = QStringLiteral("#%1 ").arg(runId);
    run.color = 2 + int(overlays_.size());
    if (!loadRun(runId, run, tr("Cannot overlay run %1"), error)) return false;
    overlays_[runId] = std::move(run);
    return true;
}

bool TrainingCharts::continueLiveRun(const QString& title, qint64 runId, QString* error) {
    beginLiveRun(title);
    if (!loadRun(runId, live_, tr("Cannot show the earlier steps of run %1"), error)) return false;
    for (const auto& entry : live_.curves)  // the resumed session's clock starts at 0 again
        if (!entry.second->empty()) secondsOffset_ = std::max(secondsOffset_, entry.second->x(XAxisMode::Seconds).back());
    return true;
}

void TrainingCharts::removeOverlay(qint64 runId) {
    if (overlays_.erase(runId)) markAllDirty();
}

QList<qint64> TrainingCharts::overlayRuns() const {
    QList<qint64> ids;
    for (const auto& entry : overlays_) ids.append(entry.first);
    return ids;
}

void TrainingCharts::setXAxisMode(XAxisMode mode) {
    if (mode == view_.xMode) return;
    view_.xMode = mode;
    const QSignalBlocker block(xAxisCombo_);
    xAxisCombo_->setCurrentIndex(int(mode));
    markAllDirty();
}

void TrainingCharts::setSmoothing(double factor) {
    smoothing_ = std::clamp(factor, 0.0, kMaxSmoothing);
    for (auto& c : live_.curves) c.second->setSmoothing(smoothingFor(c.first));
    for (auto& [id, run] : overlays_)
        for (auto& c : run.curves) c.second->setSmoothing(smoothingFor(c.first));
    const QSignalBlocker block(smoothingSlider_);
    smoothingSlider_->setValue(int(std::lround(smoothing_ * 1000)));
    smoothingValue_->setText(QString::number(smoothing_, 'f', 3));
    markAllDirty();
}

// Validation has one point per epoch: an average over a handful of epochs would mostly lag.
double TrainingCharts::smoothingFor(const std::string& series) const { return isValidation(series) ? 0.0 : smoothing_; }

void TrainingCharts::setLogScale(Qt::Orientation axis, bool log) {
    (axis == Qt::Horizontal ? view_.logX : view_.logY) = log;
    QCheckBox* box = axis == Qt::Horizontal ? logX_ : logY_;
    const QSignalBlocker block(box);
    box->setChecked(log);
    markAllDirty();
}

bool TrainingCharts::logScale(Qt::Orientation axis) const { return axis == Qt::Horizontal ? view_.logX : view_.logY; }

void TrainingCharts::setSeriesVisible(const QString& series, bool visible) {
    const QString name = series.section(QLatin1Char('/'), -1);
    if (MetricPlot* p = plot(familyOf(name.toStdString()))) {
        p->setCurveVisible(series, visible);
        markDirty(p->family());
    }
}

bool TrainingCharts::isSeriesVisible(const QString& series) const {
    const QString name = series.section(QLatin1Char('/'), -1);
    const MetricPlot* p = plot(familyOf(name.toStdString()));
    return !p || p->isCurveVisible(series);
}

MetricPlot* TrainingCharts::plot(const QString& family) const {
    for (MetricPlot* p : plots_)
        if (p->family() == family) return p;
    return nullptr;
}

MetricPlot* TrainingCharts::plotFor(const QString& family) {
    if (MetricPlot* p = plot(family)) return p;
    auto* p = new MetricPlot(family, this);
    plots_.push_back(p);
    plotsLayout_->addWidget(p, 1);
    connect(p, &MetricPlot::viewChanged, this, [this, p] { markDirty(p->family()); });
    return p;
}

QStringList TrainingCharts::families() const {
    QStringList out;
    for (const MetricPlot* p : plots_) out.append(p->family());
    return out;
}

std::vector<PlotCurve> TrainingCharts::curvesOf(const QString& family) const {
    std::vector<PlotCurve> out;
    auto collect = [&](const RunCurves& run, const QString& keyPrefix, bool overlay) {
        for (const auto& [name, series] : run.curves) {
            if (familyOf(name) != family) continue;
            const bool val = isValidation(name);
            PlotCurve c;
            c.key = keyPrefix + QString::fromStdString(name);
            c.label = run.label + QString::fromStdString(name);
            c.series = series;
            // The live run takes the first two colours (training, validation); overlays one each.
            c.color = paletteColor(overlay ? run.color : int(val));
            c.markers = val;
            c.pen = !overlay ? Qt::SolidLine : val ? Qt::DotLine : Qt::DashLine;
            out.push_back(std::move(c));
        }
    };
    for (const auto& [id, run] : overlays_) collect(run, QStringLiteral("run%1/").arg(id), true);
    collect(live_, QString(), false);  // last, so the live run is drawn on top
    return out;
}

void TrainingCharts::markDirty(const QString& family) {
    plotFor(family);
    dirty_.insert(family);
    if (!redrawTimer_->isActive()) redrawTimer_->start();
}

void TrainingCharts::markAllDirty() {
    for (const MetricPlot* p : plots_) dirty_.insert(p->family());
    if (!redrawTimer_->isActive()) redrawTimer_->start();
}

void TrainingCharts::refresh() {
    if (!isVisible()) return;  // drawn when shown again (showEvent)
    replotNow();
}

void TrainingCharts::replotNow() {
    redrawTimer_->stop();
    const std::set<QString> dirty = std::exchange(dirty_, {});
    for (const QString& family : dirty) {
        MetricPlot* p = plot(family);
        if (!p) continue;
        const std::vector<PlotCurve> curves = curvesOf(family);
        p->draw(curves, view_);
        // Loss and accuracy stay as the page's frame; another family shows while it has curves.
        p->setHidden(curves.empty() && family != QLatin1String("loss") && family != QLatin1String("accuracy"));
    }
}

void TrainingCharts::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    markAllDirty();
}

int TrainingCharts::replotCount() const {
    int n = 0;
    for (const MetricPlot* p : plots_) n += p->replotCount();
    return n;
}

QVector<QPointF> TrainingCharts::drawnPoints(const QString& series) const {
    const MetricPlot* p = plot(familyOf(series.section(QLatin1Char('/'), -1).toStdString()));
    return p ? p->drawnPoints(series) : QVector<QPointF>{};
}

void TrainingCharts::writeCsv(std::ostream& out) const {
    std::vector<CsvCurve> curves;
    for (const auto& [name, c] : live_.curves) curves.push_back({"live", name, c.get()});
    for (const auto& [id, run] : overlays_)
        for (const auto& [name, c] : run.curves) curves.push_back({std::to_string(id), name, c.get()});
    writeCurvesCsv(out, curves);
}

bool TrainingCharts::exportCsv(const QString& path, QString* error) const {
    std::ostringstream text;
    writeCsv(text);
    QFile file(path);
    const std::string bytes = text.str();
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size()))
        return true;
    if (error) *error = tr("Cannot write %1: %2").arg(path, file.errorString());
    return false;
}

bool TrainingCharts::exportPng(const QString& path, QString* error) {
    replotNow();
    std::vector<QPixmap> pixmaps;
    int width = 0, height = 0;
    for (MetricPlot* p : plots_) {
        const bool laidOut = p->isVisible() && p->width() > 100;
        pixmaps.push_back(p->toPixmap(laidOut ? p->width() : 900, laidOut ? p->height() : 320));
        width = std::max(width, pixmaps.back().width());
        height += pixmaps.back().height();
    }
    QImage image(std::max(width, 1), std::max(height, 1), QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    int y = 0;
    for (const QPixmap& pm : pixmaps) {
        painter.drawPixmap(0, y, pm);
        y += pm.height();
    }
    painter.end();
    if (image.save(path, "PNG")) return true;
    if (error) *error = tr("Cannot write the image %1").arg(path);
    return false;
}

void TrainingCharts::showError(const QString& message) {
    statusLabel_->setText(message);
    statusLabel_->setVisible(!message.isEmpty());
}

}  // namespace lf::ui
