#pragma once
// Two or more checkpoints' metrics side by side: a Qt Charts bar chart with one bar set per
// checkpoint and one category per metric any of them reports; the learning rate has its own
// axis on the right.
#include <QChartView>
#include <vector>

#include "checkpoints/store_snapshot.h"

class QBarSeries;
class QValueAxis;

namespace lf::ui {

class CompareChart : public QChartView {
    Q_OBJECT
public:
    explicit CompareChart(QWidget* parent = nullptr);

    void setCheckpoints(const std::vector<CheckpointRow>& rows);
    QBarSeries* series() const { return series_; }       // every metric but the learning rate
    QBarSeries* rateSeries() const { return rates_; }    // the learning rate, on rateAxis()
    QValueAxis* rateAxis() const;                        // null when no checkpoint reports one
    QStringList categories() const { return categories_; }

private:
    QBarSeries* series_;
    QBarSeries* rates_;
    QStringList categories_;
};

}  // namespace lf::ui
