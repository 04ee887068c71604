#pragma once
// The explorer's scatter (QCustomPlot): one chosen setting that differs between the runs (a
// number, or categories at their ordinal positions) against a chosen metric, one point per run;
// the selected runs' points are drawn larger and outlined. Clicking a point announces its run.
#include <QWidget>
#include <vector>

#include "explorer/hyperparameter_data.h"

class QComboBox;
class QCustomPlot;
class QCPCurve;

namespace lf::ui {

class HyperparameterScatter : public QWidget {
    Q_OBJECT
public:
    explicit HyperparameterScatter(QWidget* parent = nullptr);

    void setSnapshot(const ExplorerSnapshot& s);  // kept by reference: the explorer's model owns it
    void setSelectedRuns(const QList<qint64>& runs);
    QComboBox* settingBox() const { return setting_; }
    QComboBox* metricBox() const { return metric_; }
    QCustomPlot* customPlot() const { return plot_; }
    const HyperData& data() const { return data_; }
    int axis() const { return setting_->currentIndex(); }  // into data().axes; -1 when none
    QPointF pointOf(qint64 run) const;                      // plot coordinates; NaN when not drawn
    qint64 runAt(int dataIndex) const;                      // of the points' curve; 0 when none

Q_SIGNALS:
    void runClicked(qint64 run);

private:
    void rebuild();
    void restyle();

    const ExplorerSnapshot* snap_ = nullptr;
    QComboBox* setting_;
    QComboBox* metric_;
    QCustomPlot* plot_;
    QCPCurve* points_ = nullptr;
    QCPCurve* chosen_ = nullptr;
    HyperData data_;
    std::vector<qint64> order_;  // the run of each point, in the curve's data order
    QList<qint64> selected_;
};

}  // namespace lf::ui
