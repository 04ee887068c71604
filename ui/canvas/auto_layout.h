#pragma once
// The canvas's view of the engine's layered auto-layout (layerforge/graph/layout.h): the same
// positions as Qt points. One implementation; these only convert.
#include <map>
#include <string>

#include <QPointF>
#include <QSizeF>

#include "layerforge/graph/layout.h"

namespace lf::ui {

using lf::LayoutDirection;

inline std::map<std::string, QPointF> toQtPoints(const Layout& at) {
    std::map<std::string, QPointF> out;
    for (const auto& [id, p] : at) out.emplace_hint(out.end(), id, QPointF(p.x, p.y));
    return out;
}

inline std::map<std::string, QPointF> layeredLayout(const Graph& g, LayoutDirection direction) {
    return toQtPoints(layered_layout(g, direction));
}
// Layers left to right, wrapped into bands stacked top to bottom so the graph fits a view of
// this size (scene units at zoom 1) as large as it can: long chains stay readable.
inline std::map<std::string, QPointF> wrappedLayout(const Graph& g, QSizeF view) {
    return toQtPoints(wrapped_layout(g, view.width(), view.height()));
}
inline int countCrossings(const Graph& g, const std::map<std::string, QPointF>& at, LayoutDirection direction) {
    Layout points;
    for (const auto& [id, p] : at) points.emplace_hint(points.end(), id, LayoutPoint{p.x(), p.y()});
    return count_crossings(g, points, direction);
}

}  // namespace lf::ui
