#pragma once
// Live training curves for the Train page: one plot per metric family ("loss" with
// "val_loss", "accuracy" with "val_accuracy", then any other metric), training per step and
// validation per epoch, plus earlier runs from the run store overlaid.
//
// Feed it from the training controller's queued signals, on the GUI thread:
//   beginLiveRun(title)                        at RunStarted (clears the live curves)
//   addStep(step, epoch, seconds, metrics)     at every Step event
//   addEpoch(step, epoch, seconds, metrics)    at EpochEnd; only val_* metrics are drawn
//   addTrainStep(event)                        addStep from a Step event, with its learning rate
// `epoch` is fractional for steps ((epoch - 1) + step_in_epoch / steps_per_epoch), so epoch N
// ends at x = N where its validation point sits; `seconds` is the run's elapsed time. A step
// lower than the last one (a resumed run) drops the points from that step on.
//
// Appends are cheap: they mark the affected plots dirty and a timer redraws at most ~30 times
// a second, and not at all while the widget is hidden. Curves are smoothed on the full series
// (TensorBoard's debiased EMA) and then decimated to the plot's width (min/max per bucket), so
// a 10^6-point curve draws a few thousand points.
//
// Series names: the live run's are the metric names ("loss", "val_accuracy"); an overlaid run's
// are "run<ID>/<metric>" ("run3/val_loss").
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>
#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "charts/curve_series.h"
#include "charts/metric_plot.h"
#include "layerforge/train/trainer.h"

class QComboBox;
class QCheckBox;
class QLabel;
class QMenu;
class QSlider;
class QTimer;
class QVBoxLayout;

namespace lf::ui {

class TrainingCharts : public QWidget {
    Q_OBJECT
public:
    explicit TrainingCharts(QWidget* parent = nullptr);
    ~TrainingCharts() override;

    void beginLiveRun(const QString& title);  // clears the live curves
    void addStep(std::int64_t step, double epoch, double seconds, const lf::Metrics& m);
    void addEpoch(std::int64_t step, double epoch, double seconds, const lf::Metrics& m);
    // A Step event as the run store records it: its metrics and the learning rate ("lr") at
    // the step's fractional epoch. The studio feeds every step this way; EpochEnd adds only
    // its val_* metrics (addEpoch).
    void addTrainStep(const lf::TrainEvent& e);
    void setStorePath(const QString& runStorePath);  // for overlays of earlier runs
    // A resumed run: beginLiveRun, then the run's curves so far from the store. Stored points
    // past the checkpoint go as the resumed steps arrive; `seconds` continue after the stored ones.
    bool continueLiveRun(const QString& title, qint64 runId, QString* error = nullptr);
    int pointCount(const QString& series) const;     // e.g. "loss", "val_accuracy", "run3/loss"

    // Overlays (what the Runs menu does). addOverlay reads the run's metrics once; on failure
    // it returns false with a message naming the store and the run.
    bool addOverlay(qint64 runId, QString* error = nullptr);
    void removeOverlay(qint64 runId);
    QList<qint64> overlayRuns() const;
    QMenu* runsMenu() const { return runsMenu_; }  // rebuilt from the store each time it opens
    void refreshRunsMenu();

    // View controls (the toolbar's widgets call these; so can tests and other panels).
    void setXAxisMode(XAxisMode mode);
    XAxisMode xAxisMode() const { return view_.xMode; }
    void setSmoothing(double factor);  // 0..0.999, for the per-step curves (not validation)
    double smoothing() const { return smoothing_; }
    void setLogScale(Qt::Orientation axis, bool log);
    bool logScale(Qt::Orientation axis) const;
    void setSeriesVisible(const QString& series, bool visible);
    bool isSeriesVisible(const QString& series) const;

    // Exports: a PNG of all plots stacked; CSV of every raw, un-decimated point
    // (run,series,step,epoch,seconds,value).
    bool exportPng(const QString& path, QString* error = nullptr);
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    void writeCsv(std::ostream& out) const;

    // Drawing state, for tests, benchmarks and exports.
    void replotNow();          // draws pending changes at once
    int replotCount() const;   // full replots done by all plots
    QStringList families() const;
    MetricPlot* plot(const QString& family) const;
    QVector<QPointF> drawnPoints(const QString& series) const;  // decimated (x, y) on screen
    QString liveTitle() const { return liveTitle_; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct RunCurves {
        QString label;  // legend prefix: "" for the live run, "#3 " for run 3
        int color = 0;
        std::vector<std::pair<std::string, std::shared_ptr<CurveSeries>>> curves;  // in arrival order
        CurveSeries& curve(const std::string& name, double smoothing);
        const CurveSeries* find(const std::string& name) const;
    };

    void buildToolbar(QVBoxLayout* layout);
    void exportPngDialog();
    void exportCsvDialog();
    void append(const std::string& name, const CurvePoint& p);
    double smoothingFor(const std::string& series) const;
    // Appends the run's stored curves to `into`; on failure says `purpose` (with %1 the run)
    // and the store's message.
    bool loadRun(qint64 runId, RunCurves& into, const QString& purpose, QString* error);
    MetricPlot* plotFor(const QString& family);
    std::vector<PlotCurve> curvesOf(const QString& family) const;
    void markDirty(const QString& family);
    void markAllDirty();
    void refresh();
    const CurveSeries* findSeries(const QString& series) const;
    void showError(const QString& message);

    RunCurves live_;
    std::map<qint64, RunCurves> overlays_;
    QString liveTitle_, storePath_;
    double smoothing_ = 0;
    double secondsOffset_ = 0;  // added to the live run's seconds after continueLiveRun
    PlotView view_{};
    std::set<QString> dirty_;
    QTimer* redrawTimer_;
    QVBoxLayout* plotsLayout_;
    std::vector<MetricPlot*> plots_;
    QLabel* titleLabel_;
    QLabel* statusLabel_;
    QComboBox* xAxisCombo_;
    QSlider* smoothingSlider_;
    QLabel* smoothingValue_;
    QCheckBox* logX_;
    QCheckBox* logY_;
    QMenu* runsMenu_;
};

}  // namespace lf::ui
