#include "canvas/readable_layout.h"

#include <QRectF>
#include <algorithm>

#include "canvas/auto_layout.h"
#include "canvas/canvas_view.h"
#include "canvas/node_item.h"

namespace lf::ui {

namespace {

constexpr double kCardHeight = 64;

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

bool readableWhenFitted(const Graph& g, QSize view, double fontPixels) {
    return NodeItem::nameScreenPixels(fitZoom(g, view), fontPixels) >= NodeItem::kLegiblePx;
}

void layOutToRead(Graph& g, QSize view, double fontPixels) {
    if (readableWhenFitted(g, view, fontPixels)) return;
    for (const auto& [id, at] : wrappedLayout(g, QSizeF(view))) {
        Node* n = g.find(id);
        n->x = at.x();
        n->y = at.y();
    }
}

}  // namespace lf::ui
