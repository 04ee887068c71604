#include "dataset/class_count_chart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBarSeries>
#include <QChart>
#include <QValueAxis>

namespace lf::ui {

ClassCountChart::ClassCountChart(QWidget* parent) : QChartView(new QChart, parent) {
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(140);
    chart()->setTitle(tr("Images per class"));
    chart()->legend()->setAlignment(Qt::AlignBottom);
}

void ClassCountChart::showSummary(const DatasetSummary& s) {
    QChart* c = chart();
    c->removeAllSeries();
    for (QAbstractAxis* axis : c->axes()) {
        c->removeAxis(axis);
        delete axis;
    }
    series_ = new QBarSeries;
    qint64 highest = 0;
    for (int split = 0; split < s.splits.size(); ++split) {
        auto* set = new QBarSet(s.splits[split]);
        for (qint64 n : s.counts[split]) *set << double(n), highest = std::max(highest, n);
        series_->append(set);
    }
    c->addSeries(series_);
    auto* classes = new QBarCategoryAxis;
    classes->append(s.classes);
    c->addAxis(classes, Qt::AlignBottom);
    series_->attachAxis(classes);
    auto* counts = new QValueAxis;
    counts->setRange(0, double(std::max<qint64>(highest, 1)) * 1.05);
    counts->setLabelFormat("%d");
    c->addAxis(counts, Qt::AlignLeft);
    series_->attachAxis(counts);
    c->legend()->setVisible(s.splits.size() > 1);
}

}  // namespace lf::ui
