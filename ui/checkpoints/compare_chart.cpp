#include "checkpoints/compare_chart.h"

#include <QBarCategoryAxis>
#include <QChart>
#include <QBarSeries>
#include <QBarSet>
#include <QValueAxis>

namespace lf::ui {

CompareChart::CompareChart(QWidget* parent) : QChartView(parent), series_(new QBarSeries) {
    chart()->addSeries(series_);
    chart()->setTitle(tr("Select two or more checkpoints and press Compare"));
    chart()->legend()->setAlignment(Qt::AlignBottom);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(140);
}

void CompareChart::setCheckpoints(const std::vector<CheckpointRow>& rows) {
    for (QAbstractAxis* axis : chart()->axes()) {
        chart()->removeAxis(axis);
        delete axis;
    }
    series_->clear();
    categories_.clear();
    for (const CheckpointRow& r : rows)
        for (const auto& [name, value] : r.metrics)
            if (!categories_.contains(name)) categories_.append(name);
    categories_.sort();
    double top = 0, bottom = 0;
    for (const CheckpointRow& r : rows) {
        auto* set = new QBarSet(tr("run %1 %2").arg(r.info.run).arg(QString::fromStdString(r.info.name())));
        for (const QString& name : categories_) {
            double v = 0;
            for (const auto& [metric, value] : r.metrics)
                if (metric == name) v = value;
            top = qMax(top, v), bottom = qMin(bottom, v);
            set->append(v);
        }
        series_->append(set);
    }
    auto* x = new QBarCategoryAxis;
    x->append(categories_);
    auto* y = new QValueAxis;
    y->setRange(bottom, top > bottom ? top * 1.05 : bottom + 1);
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
    series_->attachAxis(x);
    series_->attachAxis(y);
    chart()->setTitle(rows.empty() ? tr("Select two or more checkpoints and press Compare")
                                   : tr("Metrics of %n checkpoint(s)", nullptr, int(rows.size())));
}

}  // namespace lf::ui
