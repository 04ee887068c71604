#pragma once
// The Data workspace's bar chart (Qt Charts): images per class, one bar set per split.
#include <QChartView>

#include "dataset/dataset_summary.h"

class QBarSeries;

namespace lf::ui {

class ClassCountChart : public QChartView {
    Q_OBJECT
public:
    explicit ClassCountChart(QWidget* parent = nullptr);
    void showSummary(const DatasetSummary& summary);
    QBarSeries* series() const { return series_; }
    static QString barToolTip(const QString& className, const QString& split, qint64 count);
    QString hoverText() const { return hoverText_; }  // the tool tip of the bar under the pointer

protected:
    bool viewportEvent(QEvent* event) override;

private:
    QBarSeries* series_ = nullptr;
    QString hoverText_;
};

}  // namespace lf::ui
