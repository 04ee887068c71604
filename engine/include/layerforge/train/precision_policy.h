#pragma once
// A run's precision policy (training.precision, --precision) against what its device runs fast,
// and what the policy means layer by layer: the checks and the per-layer view that `train`,
// `evaluate`, `predict`, `info` and the studio share.
#include <string>

#include "layerforge/backend/plan.h"
#include "layerforge/core/precision.h"
#include "layerforge/project/project.h"

namespace lf {

// Throws lf::Error (Input) with the backend's reason (Backend::precision_unsupported) when
// `device` cannot run `precision` fast: a policy it would only emulate is refused, never slow.
void require_precision(Precision precision, const std::string& device);

// The project's training plan at its batch size under its precision, step by step (the compute
// type of each layer and the bytes it holds), from the shapes alone: no weight or buffer is
// allocated (Backend::describe). Throws lf::Error (Input) when the graph is not valid.
PlanProfile describe_training_plan(const Project& project, const std::string& device = "cpu");

}  // namespace lf
