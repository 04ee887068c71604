#include "layerforge/train/memory_budget.h"

#include <cstdio>

#include "layerforge/core/error.h"
#include "layerforge/devices/devices.h"
#include "layerforge/train/optimizer.h"

namespace lf {

MemoryBreakdown estimate_training_memory(const Model& model, Optimizer& optimizer, const PlanOptions& plan) {
    MemoryBreakdown m = backend_for(plan.device).estimate(model, plan);
    m.weights = model.weights().size() * sizeof(float);
    m.gradients += model.weights().size() * sizeof(float);  // one gradient per weight
    m.optimizer_state = optimizer.state().size() * model.weights().size() * sizeof(float);
    return m;
}

std::string megabytes(std::size_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MB", double(bytes) / 1e6);
    return buf;
}

void check_memory_limit(const MemoryBreakdown& need, std::int64_t limit_mb, std::int64_t batch, const std::string& what) {
    if (limit_mb <= 0 || need.total() <= std::size_t(limit_mb) * 1000000) return;
    throw runtime_error(what + " needs about " + megabytes(need.total()) + " at batch size " + std::to_string(batch) +
                        " (weights " + megabytes(need.weights) + ", gradients " + megabytes(need.gradients) +
                        ", optimizer state " + megabytes(need.optimizer_state) + ", activations " +
                        megabytes(need.activations) + ", kernel workspaces " + megabytes(need.workspaces) + ") but the memory limit is " + std::to_string(limit_mb) +
                        " MB (training.memory_limit_mb); lower the batch size or the model's size, or raise the limit");
}

}  // namespace lf
