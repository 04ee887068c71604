#include "charts/metric_plot.h"

#include <QEvent>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include "charts/qcustomplot_include.h"

namespace lf::ui {

namespace {

constexpr const char* kHoverLayer = "hover";
constexpr const char* kRawLayer = "raw";  // below the curves: the faint raw values while smoothing
const QString kRawSuffix = QStringLiteral("#raw");

// Decimation target: one bucket per pixel column of the axis rect, within sane bounds while
// the widget has not been laid out yet.
std::size_t columnsOf(QCustomPlot* plot) {
    return std::size_t(std::clamp(plot->axisRect()->width(), 200, 4000));
}

void setScale(QCPAxis* axis, bool log) {
    const auto type = log ? QCPAxis::stLogarithmic : QCPAxis::stLinear;
    if (axis->scaleType() == type) return;
    axis->setScaleType(type);
    if (log) axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    else axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
}

QString number(double v) { return std::isfinite(v) ? QString::number(v, 'g', 5) : QStringLiteral("-"); }

}  // namespace

QColor paletteColor(int i) {
    static const QColor colors[] = {QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44),
                                    QColor(214, 39, 40),  QColor(148, 103, 189), QColor(140, 86, 75),
                                    QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34),
                                    QColor(23, 190, 207)};
    return colors[i % int(std::size(colors))];
}

QString xAxisTitle(XAxisMode mode) {
    switch (mode) {
    case XAxisMode::Step: return MetricPlot::tr("step");
    case XAxisMode::Epoch: return MetricPlot::tr("epoch");
    case XAxisMode::Seconds: return MetricPlot::tr("time (s)");
    }
    return {};
}

MetricPlot::MetricPlot(const QString& family, QWidget* parent)
    : QWidget(parent), family_(family), plot_(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    setMinimumHeight(130);  // the Train page scrolls the plots below this

    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->yAxis->setLabel(family);
    plot_->xAxis->setLabel(xAxisTitle(view_.xMode));
    plot_->legend->setVisible(false);  // until a curve is drawn: an empty legend is a bare box
    plot_->legend->setBrush(QColor(255, 255, 255, 200));
    plot_->setNoAntialiasingOnDrag(true);

    // Tracer and read-out live on their own buffered layer: a mouse move repaints only them.
    plot_->addLayer(kRawLayer, plot_->layer("main"), QCustomPlot::limBelow);
    plot_->addLayer(kHoverLayer, plot_->layer("legend"), QCustomPlot::limAbove);
    plot_->layer(kHoverLayer)->setMode(QCPLayer::lmBuffered);
    tracer_ = new QCPItemTracer(plot_);
    tracer_->setLayer(kHoverLayer);
    tracer_->setStyle(QCPItemTracer::tsCircle);
    tracer_->setSize(9);
    tracer_->setPen(QPen(Qt::black, 1.5));
    hoverText_ = new QCPItemText(plot_);
    hoverText_->setLayer(kHoverLayer);
    hoverText_->position->setType(QCPItemPosition::ptAxisRectRatio);
    hoverText_->position->setCoords(0.01, 0.02);
    hoverText_->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    hoverText_->setTextAlignment(Qt::AlignLeft);
    hoverText_->setPadding(QMargins(5, 3, 5, 3));
    hoverText_->setBrush(QColor(255, 255, 255, 225));
    hoverText_->setPen(QPen(Qt::gray));
    tracer_->setVisible(false);
    hoverText_->setVisible(false);

    connect(plot_, &QCustomPlot::afterReplot, this, [this] { ++replots_; });
    connect(plot_, &QCustomPlot::legendClick, this, &MetricPlot::onLegendClick);
    connect(plot_, &QCustomPlot::mouseWheel, this, &MetricPlot::onUserZoom);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        if (e->buttons() & Qt::LeftButton) onUserZoom();  // a drag pans the range
        else hoverAt(e->pos());
    });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { setFollowing(true); });
    plot_->installEventFilter(this);
}

MetricPlot::~MetricPlot() = default;

bool MetricPlot::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Leave) hideHover();
    return QWidget::eventFilter(watched, event);
}

void MetricPlot::setFollowing(bool follow) {
    if (following_ == follow) return;
    following_ = follow;
    Q_EMIT viewChanged();
}

void MetricPlot::onUserZoom() {
    following_ = false;
    Q_EMIT viewChanged();  // the new range is decimated on the next draw
}

QCPGraph* MetricPlot::graphFor(const PlotCurve& curve) {
    QCPGraph*& graph = graphs_[curve.key];
    if (!graph) graph = plot_->addGraph();
    // Width 1 keeps Qt's fast path for antialiased lines: a jagged 2,000-point curve at 1.6 px
    // costs 15-30 ms per plot to rasterise, at 1 px about 1 ms (bench/studio/chart_bench).
    graph->setPen(QPen(curve.color, 1.0, curve.pen));
    graph->setName(curve.label);
    graph->setScatterStyle(curve.markers ? QCPScatterStyle(QCPScatterStyle::ssCircle, curve.color, Qt::white, 6)
                                         : QCPScatterStyle());
    return graph;
}

QCPGraph* MetricPlot::rawGraphFor(const PlotCurve& curve) {
    QCPGraph*& graph = graphs_[curve.key + kRawSuffix];
    if (!graph) {
        graph = plot_->addGraph();
        graph->removeFromLegend();
        graph->setLayer(kRawLayer);
    }
    QColor faint = curve.color;
    faint.setAlpha(60);
    graph->setPen(QPen(faint, 1.0, curve.pen));
    return graph;
}

void MetricPlot::fill(QCPGraph* graph, const PlotCurve& curve, const PlotView& view, bool raw) {
    const CurveSeries& s = *curve.series;
    auto [first, last] = std::pair<std::size_t, std::size_t>(0, s.size());
    if (!following_) std::tie(first, last) = s.visibleRange(view.xMode, plot_->xAxis->range().lower, plot_->xAxis->range().upper);
    const std::vector<double>& xs = s.x(view.xMode);
    const std::vector<double>& ys = raw ? s.raw() : s.drawn();
    QVector<QCPGraphData> data;
    const std::vector<std::size_t> indices = s.decimated(first, last, columnsOf(plot_), raw);
    data.reserve(qsizetype(indices.size()));
    for (std::size_t i : indices) data.append(QCPGraphData(xs[i], ys[i]));
    graph->data()->set(data, true);
}

void MetricPlot::applyScales(const PlotView& view) {
    setScale(plot_->xAxis, view.logX);
    setScale(plot_->yAxis, view.logY);
    plot_->xAxis->setLabel(xAxisTitle(view.xMode));
}

void MetricPlot::draw(const std::vector<PlotCurve>& curves, const PlotView& view) {
    if (view.xMode != view_.xMode) following_ = true;  // the old range means nothing on the new axis
    view_ = view;
    curves_ = curves;
    applyScales(view);
    QSet<QString> keys;
    for (const PlotCurve& c : curves) {
        keys.insert(c.key);
        QCPGraph* graph = graphFor(c);
        fill(graph, c, view, false);
        graph->setVisible(isCurveVisible(c.key));
        styleLegendItem(graph, isCurveVisible(c.key));
        if (c.series->smoothed() && !c.markers) {  // TensorBoard-style: raw values faint behind
            keys.insert(c.key + kRawSuffix);
            QCPGraph* raw = rawGraphFor(c);
            fill(raw, c, view, true);
            raw->setVisible(isCurveVisible(c.key));
        }
    }
    for (auto it = graphs_.begin(); it != graphs_.end();) {
        if (keys.contains(it.key())) {
            ++it;
            continue;
        }
        plot_->removeGraph(it.value());
        it = graphs_.erase(it);
    }
    plot_->legend->setVisible(plot_->legend->itemCount() > 0);
    if (following_) {
        plot_->rescaleAxes(true);
        plot_->yAxis->scaleRange(1.08);
        widenFlatValueRange();
    }
    plot_->replot();
}

// A constant curve (a fixed learning rate) gives a zero-height range, which QCustomPlot leaves
// at its previous span: around 0.001 that drew a flat line at "0" on -3..3. Show +-5% of it.
void MetricPlot::widenFlatValueRange() {
    bool any = false;
    QCPRange all;
    for (QCPGraph* g : std::as_const(graphs_)) {
        bool found = false;
        const QCPRange r = g->visible() ? g->getValueRange(found) : QCPRange();
        if (!found) continue;
        all = any ? QCPRange(std::min(all.lower, r.lower), std::max(all.upper, r.upper)) : r;
        any = true;
    }
    const double centre = all.center();
    if (!any || all.size() > std::abs(centre) * 1e-6) return;
    const double half = centre != 0 ? std::abs(centre) * 0.05 : 1.0;
    plot_->yAxis->setRange(centre - half, centre + half);
}

void MetricPlot::styleLegendItem(QCPGraph* graph, bool visible) {
    if (QCPPlottableLegendItem* item = plot_->legend->itemWithPlottable(graph))
        item->setTextColor(visible ? Qt::black : Qt::gray);
}

void MetricPlot::setCurveVisible(const QString& key, bool visible) {
    if (visible) hidden_.remove(key);
    else hidden_.insert(key);
    if (QCPGraph* raw = graphs_.value(key + kRawSuffix)) raw->setVisible(visible);
    if (QCPGraph* graph = graphs_.value(key)) {
        graph->setVisible(visible);
        styleLegendItem(graph, visible);
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
}

void MetricPlot::onLegendClick(QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
    auto* entry = qobject_cast<QCPPlottableLegendItem*>(item);
    if (!entry) return;
    const QString key = graphs_.key(qobject_cast<QCPGraph*>(entry->plottable()));
    if (key.isEmpty()) return;
    const bool visible = !isCurveVisible(key);
    setCurveVisible(key, visible);
    Q_EMIT curveToggled(key, visible);
    if (following_) Q_EMIT viewChanged();  // refit the axes to what is still shown
}

QVector<QPointF> MetricPlot::drawnPoints(const QString& key) const {
    QVector<QPointF> out;
    if (QCPGraph* graph = graphs_.value(key))
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            out.append(QPointF(it->key, it->value));
    return out;
}

QString MetricPlot::readout() const { return hoverText_->visible() ? hoverText_->text() : QString(); }

void MetricPlot::hideHover() {
    if (!tracer_->visible() && !hoverText_->visible()) return;
    tracer_->setVisible(false);
    hoverText_->setVisible(false);
    plot_->layer(kHoverLayer)->replot();
}

void MetricPlot::hoverAt(const QPoint& pos) {
    if (!plot_->axisRect()->rect().contains(pos)) return hideHover();
    const double x = plot_->xAxis->pixelToCoord(pos.x());
    const PlotCurve* best = nullptr;
    std::size_t bestIndex = 0;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (const PlotCurve& c : curves_) {
        if (!isCurveVisible(c.key) || c.series->empty()) continue;
        const std::size_t i = c.series->nearest(view_.xMode, x);
        const double y = c.series->drawn()[i];
        if (!std::isfinite(y)) continue;
        const double dx = plot_->xAxis->coordToPixel(c.series->x(view_.xMode)[i]) - pos.x();
        const double dy = plot_->yAxis->coordToPixel(y) - pos.y();
        if (std::hypot(dx, dy) < bestDistance) {
            bestDistance = std::hypot(dx, dy);
            best = &c;
            bestIndex = i;
        }
    }
    if (!best) return hideHover();
    const double bx = best->series->x(view_.xMode)[bestIndex];
    tracer_->position->setCoords(bx, best->series->drawn()[bestIndex]);
    tracer_->setPen(QPen(best->color, 1.5));
    QStringList lines{xAxisTitle(view_.xMode) + QLatin1Char(' ') + number(bx)};
    for (const PlotCurve& c : curves_) {
        if (!isCurveVisible(c.key) || c.series->empty()) continue;
        const std::size_t i = c.series->nearest(view_.xMode, bx);
        QString line = c.label + QStringLiteral(": ") + number(c.series->raw()[i]);
        if (c.series->smoothing() > 0) line += tr(" (smoothed %1)").arg(number(c.series->drawn()[i]));
        lines.append(line);
    }
    hoverText_->setText(lines.join(QLatin1Char('\n')));
    tracer_->setVisible(true);
    hoverText_->setVisible(true);
    plot_->layer(kHoverLayer)->replot();
}

QPixmap MetricPlot::toPixmap(int width, int height) { return plot_->toPixmap(width, height); }

}  // namespace lf::ui
