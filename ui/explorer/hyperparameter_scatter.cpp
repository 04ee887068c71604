#include "explorer/hyperparameter_scatter.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>

#include "charts/qcustomplot_include.h"

namespace lf::ui {

HyperparameterScatter::HyperparameterScatter(QWidget* parent)
    : QWidget(parent), setting_(new QComboBox), metric_(new QComboBox), plot_(new QCustomPlot) {
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Setting")));
    bar->addWidget(setting_, 1);
    bar->addWidget(new QLabel(tr("Metric")));
    bar->addWidget(metric_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(plot_, 1);
    points_ = new QCPCurve(plot_->xAxis, plot_->yAxis);
    points_->setLineStyle(QCPCurve::lsNone);
    chosen_ = new QCPCurve(plot_->xAxis, plot_->yAxis);  // the selected runs, drawn over the others
    chosen_->setLineStyle(QCPCurve::lsNone);
    chosen_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), QBrush(Qt::yellow), 11));
    chosen_->setSelectable(QCP::stNone);
    plot_->setSelectionTolerance(6);
    for (QComboBox* box : {setting_, metric_}) connect(box, &QComboBox::currentIndexChanged, this, &HyperparameterScatter::rebuild);
    connect(plot_, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* p, int index, QMouseEvent*) {
        if (p == points_)
            if (const qint64 run = runAt(index)) Q_EMIT runClicked(run);
    });
}

void HyperparameterScatter::setSnapshot(const ExplorerSnapshot& s) {
    snap_ = &s;
    const QString current = setting_->currentData().toString();
    {
        const QSignalBlocker block(setting_);
        setting_->clear();
        for (const QString& k : s.settingKeys) setting_->addItem(settingTitle(k), k);
        int at = setting_->findData(current);
        if (at < 0) at = setting_->findData(QStringLiteral("/settings/training/learning_rate"));
        setting_->setCurrentIndex(std::max(at, 0));
    }
    fillMetricChoices(metric_, s);
    rebuild();
}

void HyperparameterScatter::setSelectedRuns(const QList<qint64>& runs) {
    selected_ = runs;
    restyle();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

qint64 HyperparameterScatter::runAt(int dataIndex) const {
    return dataIndex >= 0 && std::size_t(dataIndex) < order_.size() ? order_[std::size_t(dataIndex)] : 0;
}

QPointF HyperparameterScatter::pointOf(qint64 run) const {
    const int k = axis(), i = data_.indexOf(run);
    if (k < 0 || i < 0) return {std::nan(""), std::nan("")};
    return {data_.points[std::size_t(i)].values[std::size_t(k)], data_.points[std::size_t(i)].metric};
}

void HyperparameterScatter::rebuild() {
    const QStringList choice = metric_->currentData().toStringList();
    data_ = snap_ && choice.size() == 2 ? hyperparameterData(*snap_, choice[0], choice[1] == QLatin1String("best"))
                                        : HyperData{};
    const int k = axis();
    QVector<double> t, x, y;
    order_.clear();
    if (k >= 0 && std::size_t(k) < data_.axes.size()) {
        for (const HyperPoint& p : data_.points) {
            if (!std::isfinite(p.values[std::size_t(k)])) continue;
            t.append(double(order_.size()));
            x.append(p.values[std::size_t(k)]);
            y.append(p.metric);
            order_.push_back(p.run);
        }
        const HyperAxis& a = data_.axes[std::size_t(k)];
        if (a.categorical) {
            QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
            for (int c = 0; c < a.categories.size(); ++c) ticks->addTick(c, a.categories[c]);
            plot_->xAxis->setTicker(ticks);
            plot_->xAxis->setScaleType(QCPAxis::stLinear);
        } else {
            plot_->xAxis->setScaleType(a.log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
            plot_->xAxis->setTicker(a.log ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                                          : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        }
        plot_->xAxis->setLabel(a.title);
    }
    points_->setData(t, x, y, true);
    plot_->yAxis->setLabel(metric_->currentText());
    restyle();
    plot_->rescaleAxes();
    // A margin for the highlight rings: the plot is often only ~100 px high under the table.
    plot_->xAxis->scaleRange(1.15);
    plot_->yAxis->scaleRange(1.3);
    plot_->replot();
}

void HyperparameterScatter::restyle() {
    points_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(31, 119, 180, 170), 7));
    QVector<double> t, x, y;
    for (qint64 run : selected_) {
        const QPointF p = pointOf(run);
        if (!std::isfinite(p.x())) continue;
        t.append(t.size());
        x.append(p.x());
        y.append(p.y());
    }
    chosen_->setData(t, x, y, true);
}

}  // namespace lf::ui
