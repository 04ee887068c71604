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
// allocated (Model::shapes_only). When even training_memory_floor() exceeds the device's memory,
// that floor is returned (marked lower_bound) and no kernel is chosen: huge sizes stay fast.
// Throws lf::Error (Input) when the graph is not valid.
MemoryBreakdown estimate_training_memory(const Graph& graph, Optimizer& optimizer, const PlanOptions& plan);
// What any training plan needs at least, from the shapes alone and without choosing kernels:
// the weights, their gradients, the optimizer's state and the largest activation of one batch
// (in bfloat16 under mixed_bfloat16). Saturates (at SIZE_MAX / 8 per field) instead of
// wrapping, whatever the sizes.
MemoryBreakdown training_memory_floor(const Model& model, Optimizer& optimizer, std::int64_t batch,
                                      Precision precision = Precision::Float32);
// What `layerforge-cli info` prints and the studio's status bar shows: the project's graph with
// its optimizer, for a training plan at its batch size and precision. Throws lf::Error (Input) when the graph
// or the optimizer settings are not valid.
MemoryBreakdown estimate_training_memory(const Project& project);
// The same without an optimizer, for evaluation and prediction (which bind none). The weights'
// gradients still count: the model holds them.
MemoryBreakdown estimate_inference_memory(const Model& model, const PlanOptions& plan);

// "71.8 MB" (decimal megabytes, as the estimate is printed everywhere).
std::string megabytes(std::size_t bytes);

// Throws lf::Error (Input) naming the needed and allowed sizes and the batch size when `need`
// exceeds `limit_mb` (0 or less: no limit) or the `device`'s memory. `what` says what was about
// to be built ("training", "evaluation").
void check_memory_fits(const MemoryBreakdown& need, std::int64_t limit_mb, const std::string& device, std::int64_t batch,
                       const std::string& what);

// Refuses a project whose training cannot fit (check_memory_fits on its estimate at its batch
// size and precision), or whose precision the device cannot run (require_precision), before
// any weight is allocated.
void require_training_fits(const Project& project, const std::string& device);

}  // namespace lf
