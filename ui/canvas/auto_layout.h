#pragma once
// Layered auto-layout (Sugiyama style) for DAGs: longest-path layers, then barycentre sweeps
// that reduce edge crossings, then coordinates left-to-right, top-to-bottom, or left-to-right in
// bands that wrap to fit a window.
#include <map>
#include <string>

#include <QPointF>
#include <QSizeF>

#include "layerforge/graph/graph.h"

namespace lf::ui {

enum class LayoutDirection { LeftToRight, TopToBottom };

std::map<std::string, QPointF> layeredLayout(const Graph& g, LayoutDirection direction);
// Layers left to right, wrapped into bands stacked top to bottom so the graph fits a view of
// this size (scene units at zoom 1) as large as it can: long chains stay readable.
std::map<std::string, QPointF> wrappedLayout(const Graph& g, QSizeF view);
int countCrossings(const Graph& g, const std::map<std::string, QPointF>& at, LayoutDirection direction);

}  // namespace lf::ui
