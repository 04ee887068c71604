#pragma once
// What the start page shows of a template: a picture of its graph (cards in their category
// colours at their canvas positions, edges between them) and one line of facts.
#include <QImage>
#include <QString>

#include "layerforge/project/project.h"

namespace lf::ui {

QImage graphPicture(const Graph& graph, QSize size);
// "Input (28, 28, 1) · 9 layers · 1.2 M parameters · 10 outputs"; the error when it does not build.
QString templateLine(const Project& project);

}  // namespace lf::ui
