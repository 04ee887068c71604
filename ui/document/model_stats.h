#pragma once
// Totals for the status bar and the summary: parameters, FLOPs and an estimate of the memory
// one training step needs at the project's batch size.
#include <cstdint>

#include <QString>

#include "layerforge/graph/analysis.h"
#include "layerforge/project/project.h"

namespace lf::ui {

// float32 weights + gradients + optimizer slots (Adam/AdamW/RMSprop/SGD momentum), plus every
// layer's output and its gradient for one batch (views share their input's buffer).
std::int64_t trainingMemoryBytes(const Project& p, const Analysis& a);
QString formatBytes(std::int64_t bytes);
QString formatCount(std::int64_t n);  // 79,510 / 1.2 G
QString statusSummary(const Project& p, const Analysis& a);

}  // namespace lf::ui
