#pragma once
// The memory a training run needs before anything is allocated, and the configured limit
// (training.memory_limit_mb, `train --memory-limit MB`) that the trainer checks before it
// builds each execution plan.
#include <cstddef>
#include <cstdint>
#include <string>

#include "layerforge/backend/plan.h"
#include "layerforge/core/memory.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"

namespace lf {

class Optimizer;

// Weights and their gradients, the optimizer's state (sized from its slots, bound or not), and
// the activations, activation gradients and kernel workspaces of one plan (Backend::estimate: the
// kernels are chosen, not run; a training plan unless `plan` says otherwise).
MemoryBreakdown estimate_training_memory(const Model& model, Optimizer& optimizer, const PlanOptions& plan);
// The same figure from the graph alone: the weights are sized from their shapes and never
// allocated (Model::shapes_only). Throws lf::Error (Input) when the graph is not valid.
MemoryBreakdown estimate_training_memory(const Graph& graph, Optimizer& optimizer, const PlanOptions& plan);
// What `layerforge-cli info` prints and the studio's status bar shows: the project's graph with
// its optimizer, for a training plan at its batch size. Throws lf::Error (Input) when the graph
// or the optimizer settings are not valid.
MemoryBreakdown estimate_training_memory(const Project& project);
// The same without an optimizer, for evaluation and prediction (which bind none). The weights'
// gradients still count: the model holds them.
MemoryBreakdown estimate_inference_memory(const Model& model, const PlanOptions& plan);

// "71.8 MB" (decimal megabytes, as the estimate is printed everywhere).
std::string megabytes(std::size_t bytes);

// Throws lf::Error (Runtime) naming the needed and allowed sizes and the batch size when `need`
// exceeds `limit_mb` (0 or less: no limit). `what` says what was about to be built.
void check_memory_limit(const MemoryBreakdown& need, std::int64_t limit_mb, std::int64_t batch, const std::string& what);

}  // namespace lf
