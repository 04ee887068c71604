#pragma once
// Positions for a graph whose layout is not the user's (a template opened as a copy, the
// example): kept while they show full cards once fitted to the view, else replaced by
// wrappedLayout's bands where those fit the view clearly larger: the tutorial CNN's row is a
// strip of small coloured names at 1366 x 768 and MobileNet's a row of bars.
#include <QSize>

#include "layerforge/graph/graph.h"

namespace lf::ui {

// The canvas's size, or that of a 1366 x 768 window's canvas between its docks while the view
// has not been laid out yet (a project opened before the window shows).
QSize canvasSizeOr1366(QSize viewport);
// The zoom Fit to Window chooses for these positions in a view of this size.
double fitZoom(const Graph& g, QSize view);
void layOutToRead(Graph& g, QSize view, double fontPixels);

}  // namespace lf::ui
