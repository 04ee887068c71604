#include "explorer/parallel_coordinates.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>
#include <tuple>

#include "charts/qcustomplot_include.h"

namespace lf::ui {

QColor metricColor(double v, double lo, double hi, bool higherIsBetter) {
    double t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
    if (higherIsBetter) t = 1 - t;
    return QColor::fromHsvF(0.66 * (1 - std::clamp(t, 0.0, 1.0)), 0.85, 0.85);  // 0.66: blue, 0: red
}

ParallelCoordinates::ParallelCoordinates(QWidget* parent) : QWidget(parent), metric_(new QComboBox), plot_(new QCustomPlot) {
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Metric")));
    bar->addWidget(metric_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(plot_, 1);
    plot_->yAxis->setVisible(false);
    plot_->xAxis->grid()->setVisible(false);
    plot_->yAxis->grid()->setVisible(false);
    plot_->setSelectionTolerance(6);
    plot_->addLayer(QStringLiteral("chosen"), plot_->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    connect(metric_, &QComboBox::currentIndexChanged, this, &ParallelCoordinates::rebuild);
    connect(plot_, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* p, int, QMouseEvent*) {
        if (const qint64 run = runOf(p)) Q_EMIT runClicked(run);
    });
}

void ParallelCoordinates::setSnapshot(const ExplorerSnapshot& s) {
    snap_ = &s;
    fillMetricChoices(metric_, s);
    rebuild();
}

void ParallelCoordinates::setSelectedRuns(const QList<qint64>& runs) {
    selected_ = runs;
    restyle();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QCPAbstractPlottable* ParallelCoordinates::lineOf(qint64 run) const { return runs_.key(run, nullptr); }
qint64 ParallelCoordinates::runOf(QCPAbstractPlottable* line) const { return runs_.value(line, 0); }

void ParallelCoordinates::rebuild() {
    plot_->clearPlottables();
    plot_->clearItems();
    runs_.clear();
    const QStringList choice = metric_->currentData().toStringList();
    if (!snap_ || choice.size() != 2) {
        data_ = {};
        plot_->replot();
        return;
    }
    data_ = hyperparameterData(*snap_, choice[0], choice[1] == QLatin1String("best"));
    const int n = int(data_.axes.size());  // the metric's axis is at x = n
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    for (int k = 0; k <= n; ++k) {
        ticks->addTick(k, k < n ? data_.axes[std::size_t(k)].title : metric_->currentText());
        auto* axis = new QCPItemStraightLine(plot_);
        axis->point1->setCoords(k, 0);
        axis->point2->setCoords(k, 1);
        axis->setPen(QPen(Qt::gray));
        axis->setSelectable(false);
        // The ends of each axis: its smallest and largest value (the first and last category).
        const HyperAxis* a = k < n ? &data_.axes[std::size_t(k)] : nullptr;
        const QString lo = a ? (a->categorical ? a->categories.value(0) : QString::number(a->min, 'g', 4))
                             : QString::number(data_.metricMin, 'g', 4);
        const QString hi = a ? (a->categorical ? a->categories.value(a->categories.size() - 1) : QString::number(a->max, 'g', 4))
                             : QString::number(data_.metricMax, 'g', 4);
        // Just beyond each end, so neither label sits on the lines that meet there.
        for (auto [y, text, align] : {std::tuple{-0.02, lo, Qt::AlignTop}, std::tuple{1.02, hi, Qt::AlignBottom}}) {
            auto* label = new QCPItemText(plot_);
            label->position->setCoords(k, y);
            label->setPositionAlignment(align | Qt::AlignHCenter);
            label->setText(text);
            label->setSelectable(false);
        }
    }
    plot_->xAxis->setTicker(ticks);
    plot_->xAxis->setRange(-0.3, n + 0.3);
    plot_->yAxis->setRange(-0.16, 1.16);
    const double lo = data_.metricMin, hi = data_.metricMax;
    for (const HyperPoint& p : data_.points) {
        auto* line = new QCPCurve(plot_->xAxis, plot_->yAxis);
        QVector<double> t, x, y;
        for (int k = 0; k < n; ++k) {
            t.append(k);
            x.append(k);
            y.append(data_.axes[std::size_t(k)].normalized(p.values[std::size_t(k)]));
        }
        t.append(n);
        x.append(n);
        y.append(hi > lo ? (p.metric - lo) / (hi - lo) : 0.5);
        line->setData(t, x, y, true);
        runs_.insert(line, p.run);
    }
    restyle();
    plot_->replot();
}

void ParallelCoordinates::restyle() {
    const bool higher = higher_is_better(data_.metric.toStdString());
    for (auto it = runs_.begin(); it != runs_.end(); ++it) {
        const HyperPoint& p = data_.points[std::size_t(data_.indexOf(it.value()))];
        QColor c = metricColor(p.metric, data_.metricMin, data_.metricMax, higher);
        const bool chosen = selected_.contains(it.value());
        if (!chosen && !selected_.isEmpty()) c.setAlpha(70);
        it.key()->setPen(QPen(c, chosen ? 3.0 : 1.0));
        it.key()->setLayer(chosen ? QStringLiteral("chosen") : QStringLiteral("main"));  // the chosen on top
    }
}

}  // namespace lf::ui
