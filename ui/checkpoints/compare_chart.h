#pragma once
// Two or more checkpoints' metrics side by side: a Qt Charts bar chart with one bar set per
// checkpoint and one category per metric any of them reports.
#include <QChartView>
#include <vector>

#include "checkpoints/store_snapshot.h"

class QBarSeries;

namespace lf::ui {

class CompareChart : public QChartView {
    Q_OBJECT
public:
    explicit CompareChart(QWidget* parent = nullptr);

    void setCheckpoints(const std::vector<CheckpointRow>& rows);
    QBarSeries* series() const { return series_; }
    QStringList categories() const { return categories_; }

private:
    QBarSeries* series_;
    QStringList categories_;
};

}  // namespace lf::ui
