#pragma once
// The explorer's parallel-coordinates plot (QCustomPlot): one vertical axis per setting that
// differs between the runs and a last one for the chosen metric, one line per run coloured by
// the metric (blue best ... red worst); the selected runs' lines are drawn bold. Clicking a line
// announces its run.
#include <QHash>
#include <QWidget>

#include "explorer/hyperparameter_data.h"

class QComboBox;
class QCustomPlot;
class QCPAbstractPlottable;
class QMouseEvent;

namespace lf::ui {

class ParallelCoordinates : public QWidget {
    Q_OBJECT
public:
    explicit ParallelCoordinates(QWidget* parent = nullptr);

    void setSnapshot(const ExplorerSnapshot& s);  // kept by reference: the explorer's model owns it
    void setSelectedRuns(const QList<qint64>& runs);
    QComboBox* metricBox() const { return metric_; }
    QCustomPlot* customPlot() const { return plot_; }
    const HyperData& data() const { return data_; }
    QCPAbstractPlottable* lineOf(qint64 run) const;  // nullptr when the run is not drawn
    qint64 runOf(QCPAbstractPlottable* line) const;  // 0 when none

Q_SIGNALS:
    void runClicked(qint64 run);

private:
    void rebuild();
    void restyle();

    const ExplorerSnapshot* snap_ = nullptr;
    QComboBox* metric_;
    QCustomPlot* plot_;
    HyperData data_;
    QHash<QCPAbstractPlottable*, qint64> runs_;
    QList<qint64> selected_;
};

// The colour of a metric value between lo and hi: blue for the best end, red for the worst.
QColor metricColor(double v, double lo, double hi, bool higherIsBetter);

}  // namespace lf::ui
