#pragma once
// Positions for a graph whose layout is not the user's (a template opened as a copy): kept when
// the layer names are readable once the graph is fitted to the view, else replaced by
// wrappedLayout's bands, so a long chain such as MobileNet is not a row of tiny bars.
#include <QSize>

#include "layerforge/graph/graph.h"

namespace lf::ui {

// The canvas's size, or that of a 1366 x 768 window's canvas between its docks while the view
// has not been laid out yet (a project opened before the window shows).
QSize canvasSizeOr1366(QSize viewport);
// The zoom Fit to Window chooses for these positions in a view of this size.
double fitZoom(const Graph& g, QSize view);
bool readableWhenFitted(const Graph& g, QSize view, double fontPixels);
void layOutToRead(Graph& g, QSize view, double fontPixels);

}  // namespace lf::ui
