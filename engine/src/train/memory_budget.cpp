#include "layerforge/train/memory_budget.h"

#include <cstdio>

#include "layerforge/core/error.h"
#include "layerforge/devices/devices.h"
#include "layerforge/train/optimizer.h"

namespace lf {

namespace {

// From the refs: a shapes-only model holds no weights.
std::size_t weight_bytes(const Model& model) {
    std::size_t weights = 0;
    for (const WeightRef& r : model.weight_refs()) weights += r.size;
    return weights * sizeof(float);
}

}  // namespace

MemoryBreakdown estimate_training_memory(const Model& model, Optimizer& optimizer, const PlanOptions& plan) {
    MemoryBreakdown m = estimate_inference_memory(model, plan);  // weights, their gradients, the plan
    m.optimizer_state = optimizer.state().size() * m.weights;
    return m;
}

MemoryBreakdown estimate_training_memory(const Graph& graph, Optimizer& optimizer, const PlanOptions& plan) {
    return estimate_training_memory(Model::shapes_only(graph), optimizer, plan);
}

MemoryBreakdown estimate_training_memory(const Project& project) {
    const auto optimizer = make_optimizer(project.training.optimizer.type, project.training.optimizer.params);
    return estimate_training_memory(project.graph, *optimizer, {.batch = project.training.batch_size, .mode = PlanMode::Train});
}

MemoryBreakdown estimate_inference_memory(const Model& model, const PlanOptions& plan) {
    MemoryBreakdown m = backend_for(plan.device).estimate(model, plan);
    m.weights = weight_bytes(model);
    m.gradients += weight_bytes(model);  // the model holds them
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
