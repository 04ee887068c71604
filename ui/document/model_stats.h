#pragma once
// Totals for the status bar and the summary: parameters, FLOPs and the engine's estimate of
// the memory one training step needs at the project's batch size (TrainingMemoryEstimate).
#include <cstdint>

#include <QString>

#include "layerforge/graph/analysis.h"
#include "layerforge/project/project.h"

namespace lf::ui {

class TrainingMemoryEstimate;

QString formatBytes(std::int64_t bytes);  // "75.2 MB": decimal units, as `layerforge-cli info` prints
QString formatCount(std::int64_t n);      // 79,510 / 1.2 G
// "~75.2 MB"; "…" while it is being estimated; "?" when the graph or the optimizer settings
// cannot be estimated.
QString memoryText(const TrainingMemoryEstimate& memory);
// Why training would refuse the graph (the engine's own check, training_graph_problem); empty
// when it can be trained.
QString trainingProblem(const Analysis& a);
// "... · valid", "... · 2 problem(s)" or "... · not trainable: <why>".
QString statusSummary(const Project& p, const Analysis& a, const TrainingMemoryEstimate& memory);

}  // namespace lf::ui
