#pragma once
// The explorer's Curves tab: the selected runs' curves of one metric overlaid on a MetricPlot
// (min/max decimation to the pixel width, as the live charts). Long curves are drawn zoomed out
// from the store's pre-aggregated levels; zooming in to a few levels' width reads the rows of
// the visible window (overlay_curves.h). Reads run on a worker thread, one at a time.
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "charts/metric_plot.h"
#include "explorer/explorer_snapshot.h"
#include "explorer/overlay_curves.h"

class QComboBox;
class QLabel;

namespace lf::ui {

class RunOverlay : public QWidget {
    Q_OBJECT
public:
    explicit RunOverlay(QWidget* parent = nullptr);

    void setStorePath(const QString& path) { path_ = path; }
    // The runs to overlay, in the order given; the metric list becomes what they report.
    void setRuns(const std::vector<const ExplorerRun*>& runs);
    QComboBox* metricBox() const { return metric_; }
    MetricPlot* plot() const { return plot_; }
    QLabel* hint() const { return hint_; }
    QList<qint64> runs() const;
    // Whether the run's curve was last drawn with levels (zoomed out) rather than rows only.
    bool drawnFromLevels(qint64 run) const;
    std::size_t pointCount(qint64 run) const;  // points of its series as last read

Q_SIGNALS:
    void drawn();  // curves read and drawn

private:
    struct Run {
        qint64 id = 0;
        QString label;
        std::vector<MetricSummary> metrics;  // what the run reports (row counts by metric)
        std::shared_ptr<CurveSeries> series;
        bool fromLevels = false;
    };
    void fillMetrics();
    void reload(std::optional<StepWindow> window);
    void onViewChanged();
    void redraw();

    QString path_;
    QComboBox* metric_;
    MetricPlot* plot_;
    QLabel* hint_;  // in the plot's place while no run is selected
    std::vector<Run> runs_;
    std::optional<StepWindow> window_;     // rows were read for these steps
    std::optional<StepWindow> requested_;  // by the latest reload
    bool reading_ = false, readAgain_ = false;
};

}  // namespace lf::ui
