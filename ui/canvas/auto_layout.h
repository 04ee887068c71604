#pragma once
// Layered auto-layout (Sugiyama style) for DAGs: longest-path layers, then barycentre sweeps
// that reduce edge crossings, then coordinates left-to-right or top-to-bottom.
#include <map>
#include <string>

#include <QPointF>

#include "layerforge/graph/graph.h"

namespace lf::ui {

enum class LayoutDirection { LeftToRight, TopToBottom };

std::map<std::string, QPointF> layeredLayout(const Graph& g, LayoutDirection direction);
int countCrossings(const Graph& g, const std::map<std::string, QPointF>& at, LayoutDirection direction);

}  // namespace lf::ui
