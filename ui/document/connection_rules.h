#pragma once
// What may connect: checked while the user drags an edge, before any command exists.
#include <QString>

#include "document/project_document.h"

namespace lf::ui {

// Empty when `edge` may be added (replacing an edge that feeds the same input port);
// otherwise the reason, fit for a tooltip: a cycle, a self-loop, incompatible shapes.
QString connectionProblem(const ProjectDocument& doc, const Edge& edge);

// Number of input ports a node shows, given how many of its ports are in use: a fixed-arity
// layer shows all its ports; a variadic one (Add) shows one free port more than it uses.
int visibleInputPorts(const LayerSpec* spec, int usedPorts);

}  // namespace lf::ui
