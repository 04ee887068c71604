#include "canvas/readable_layout.h"

#include <QRectF>
#include <algorithm>

#include "canvas/auto_layout.h"
#include "canvas/canvas_view.h"
#include "canvas/node_item.h"

namespace lf::ui {

namespace {

constexpr double kCardHeight = 64;
constexpr double kClearlyLarger = 1.25;  // the bands' fitted zoom over the row's, for a change of layout

}  // namespace

QSize canvasSizeOr1366(QSize viewport) { return viewport.width() < 400 || viewport.height() < 300 ? QSize(1100, 560) : viewport; }

double fitZoom(const Graph& g, QSize view) {
    QRectF bounds;
    for (const Node& n : g.nodes) bounds = bounds.united(QRectF(n.x, n.y, NodeItem::kWidth, kCardHeight));
    if (bounds.isEmpty()) return 1;
    const QRectF shown = bounds.adjusted(-CanvasView::kFitMargin, -CanvasView::kFitMargin, CanvasView::kFitMargin,
                                         CanvasView::kFitMargin);
    const double zoom = std::min(view.width() / shown.width(), view.height() / shown.height());
    return zoom > CanvasView::kMaxFitZoom ? 1.0 : zoom;
}

void layOutToRead(Graph& g, QSize view, double fontPixels) {
    const double asItIs = fitZoom(g, view);
    if (!NodeItem::showsOverview(asItIs, fontPixels)) return;
    Graph wrapped = g;
    for (const auto& [id, at] : wrappedLayout(g, QSizeF(view))) {
        Node* n = wrapped.find(id);
        n->x = at.x();
        n->y = at.y();
    }
    if (fitZoom(wrapped, view) >= kClearlyLarger * asItIs) g = std::move(wrapped);
}

}  // namespace lf::ui
