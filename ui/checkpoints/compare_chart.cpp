#include "checkpoints/compare_chart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLegendMarker>
#include <QValueAxis>
#include <algorithm>

namespace lf::ui {

namespace {

// The learning rate (~1e-3) would be invisible on the scale of loss and accuracy.
bool onRateAxis(const QString& metric) { return metric == QLatin1String("lr") || metric == QLatin1String("learning_rate"); }

double metricOf(const CheckpointRow& r, const QString& name) {
    for (const auto& [metric, value] : r.metrics)
        if (metric == name) return value;
    return 0;
}

QValueAxis* valueAxis(const QString& title, double bottom, double top) {
    auto* y = new QValueAxis;
    if (!title.isEmpty()) y->setTitleText(title);
    y->setRange(bottom, top > bottom ? top * 1.05 : bottom + 1);
    return y;
}

}  // namespace

CompareChart::CompareChart(QWidget* parent) : QChartView(parent), series_(new QBarSeries), rates_(new QBarSeries) {
    chart()->addSeries(series_);
    chart()->addSeries(rates_);
    chart()->setTitle(tr("Select two or more checkpoints and press Compare"));
    chart()->legend()->setAlignment(Qt::AlignRight);  // the height goes to the bars on a laptop screen
    chart()->setMargins(QMargins(4, 4, 4, 4));
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(140);
}

QValueAxis* CompareChart::rateAxis() const {
    const auto axes = rates_->attachedAxes();
    for (QAbstractAxis* a : axes)
        if (auto* v = qobject_cast<QValueAxis*>(a)) return v;
    return nullptr;
}

// One bar set per checkpoint in each series: the metrics on the left axis, the learning rate
// in its own series on a right-hand axis (zero bars elsewhere, so the two never overlap).
void CompareChart::setCheckpoints(const std::vector<CheckpointRow>& rows) {
    for (QAbstractAxis* axis : chart()->axes()) {
        chart()->removeAxis(axis);
        delete axis;
    }
    series_->clear();
    rates_->clear();
    categories_.clear();
    for (const CheckpointRow& r : rows)
        for (const auto& [name, value] : r.metrics)
            if (!categories_.contains(name)) categories_.append(name);
    categories_.sort();
    double top = 0, bottom = 0, rateTop = 0;
    for (const CheckpointRow& r : rows) {
        const QString label = tr("run %1 %2").arg(r.info.run).arg(QString::fromStdString(r.info.name()));
        auto* set = new QBarSet(label);
        auto* rate = new QBarSet(label);
        for (const QString& name : categories_) {
            const double v = metricOf(r, name);
            const bool isRate = onRateAxis(name);
            if (isRate) rateTop = qMax(rateTop, v);
            else top = qMax(top, v), bottom = qMin(bottom, v);
            set->append(isRate ? 0 : v);
            rate->append(isRate ? v : 0);
        }
        series_->append(set);
        rates_->append(rate);
        rate->setColor(set->color());
    }
    for (QLegendMarker* m : chart()->legend()->markers(rates_)) m->setVisible(false);  // the same checkpoints
    auto* x = new QBarCategoryAxis;
    x->append(categories_);
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(valueAxis(QString(), bottom, top), Qt::AlignLeft);
    series_->attachAxis(x);
    series_->attachAxis(chart()->axes(Qt::Vertical).first());
    rates_->attachAxis(x);
    const bool anyRate = std::any_of(categories_.begin(), categories_.end(), onRateAxis);
    if (anyRate) {
        QValueAxis* y = valueAxis(tr("learning rate"), 0, rateTop);
        chart()->addAxis(y, Qt::AlignRight);
        rates_->attachAxis(y);
    }
    chart()->setTitle(rows.empty() ? tr("Select two or more checkpoints and press Compare") : QString());
}

}  // namespace lf::ui
