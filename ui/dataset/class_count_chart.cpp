#include "dataset/class_count_chart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBarSeries>
#include <QChart>
#include <QHelpEvent>
#include <QToolTip>
#include <QValueAxis>

namespace lf::ui {

namespace {

// The smallest of 1, 2, 3, 4, 5, 6, 8 times a power of ten whose double reaches `highest`.
qint64 roundStepOfHalf(qint64 highest) {
    for (qint64 power = 1;; power *= 10)
        for (qint64 m : {1, 2, 3, 4, 5, 6, 8})
            if (2 * m * power >= highest) return m * power;
}

}  // namespace

QString ClassCountChart::barToolTip(const QString& className, const QString& split, qint64 count) {
    return tr("%1 (%2): %Ln image(s)", nullptr, int(count)).arg(className, split);
}

ClassCountChart::ClassCountChart(QWidget* parent) : QChartView(new QChart, parent) {
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(140);
    chart()->setTitle(tr("Images per class"));
    chart()->legend()->setAlignment(Qt::AlignBottom);
}

// The view's own tool tip event: the scene would hide any other tip, as no item has one.
bool ClassCountChart::viewportEvent(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QChartView::viewportEvent(event);
    if (hoverText_.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), hoverText_, this);
    return true;
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
    // The class names under the bars are elided when there are many: the bar says whose it is.
    hoverText_.clear();
    connect(series_, &QBarSeries::hovered, this, [this, classes = s.classes](bool on, int index, QBarSet* set) {
        const bool inRange = on && index >= 0 && index < classes.size();
        hoverText_ = inRange ? barToolTip(classes[index], set->label(), qint64(set->at(index))) : QString();
    });
    auto* classes = new QBarCategoryAxis;
    classes->append(s.classes);
    c->addAxis(classes, Qt::AlignBottom);
    series_->attachAxis(classes);
    auto* counts = new QValueAxis;
    // Three round ticks (0, 3000, 6000): the panel leaves the plot about 50 px, where Qt's
    // default five elide every label to "...".
    const qint64 step = roundStepOfHalf(highest);
    counts->setRange(0, double(2 * step));
    counts->setTickCount(3);
    counts->setLabelFormat("%d");
    c->addAxis(counts, Qt::AlignLeft);
    series_->attachAxis(counts);
    c->legend()->setVisible(s.splits.size() > 1);
}

}  // namespace lf::ui
