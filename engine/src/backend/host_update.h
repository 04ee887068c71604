#pragma once
// The host loop of every update rule: a step that WeightUpdate::take_step() returned, run over
// [begin, end) of the weights (the state arrays are indexed alike). The optimizers' step() runs
// it in one slice per thread; a CPU plan in bands, each followed by the bfloat16 or blocked
// copies of the weights it just wrote (CpuPlan::backward_and_update).
#include <cstddef>

#include "layerforge/backend/weight_update.h"

namespace lf {

void run_update_step(const UpdateStep& u, float* w, const float* g, std::size_t begin, std::size_t end);

}  // namespace lf
