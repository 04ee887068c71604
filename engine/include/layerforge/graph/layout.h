#pragma once
// Layered auto-layout (Sugiyama style) of a graph's nodes for the canvas: longest-path layers,
// then barycentre sweeps that reduce edge crossings, then coordinates left-to-right,
// top-to-bottom, or left-to-right in bands that wrap to fit a view. Pure geometry on lf::Graph,
// so the studio's canvas and the model import lay out alike.
#include <map>
#include <string>

#include "layerforge/graph/graph.h"

namespace lf {

enum class LayoutDirection { LeftToRight, TopToBottom };

struct LayoutPoint {
    double x = 0, y = 0;
    bool operator==(const LayoutPoint&) const = default;
};
using Layout = std::map<std::string, LayoutPoint>;  // by node id

Layout layered_layout(const Graph& g, LayoutDirection direction);
// Layers left to right, wrapped into bands stacked top to bottom so the graph fits a view of
// this size (scene units at zoom 1) as large as it can: long chains stay readable.
Layout wrapped_layout(const Graph& g, double view_width, double view_height);
int count_crossings(const Graph& g, const Layout& at, LayoutDirection direction);

// Moves every node of `g` found in `at` there.
void apply_layout(Graph& g, const Layout& at);

}  // namespace lf
