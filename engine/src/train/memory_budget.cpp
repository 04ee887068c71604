#include "layerforge/train/memory_budget.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "layerforge/core/error.h"
#include "layerforge/devices/devices.h"
#include "layerforge/train/optimizer.h"
#include "layerforge/train/precision_policy.h"

namespace lf {

namespace {

// From the refs: a shapes-only model holds no weights.
std::size_t weight_bytes(const Model& model) {
    std::size_t weights = 0;
    for (const WeightRef& r : model.weight_refs()) weights += r.size;
    return weights * sizeof(float);
}

// Products of sizes that may pass 2^64 (a batch of 2^31 times a 2^40-value activation) clamp
// here, low enough that total() adds five of them without wrapping.
std::size_t saturated(unsigned __int128 bytes) {
    constexpr std::size_t kMax = SIZE_MAX / 8;
    return bytes > kMax ? kMax : std::size_t(bytes);
}

std::string device_or_cpu(const std::string& device) { return device.empty() ? std::string("cpu") : device; }

}  // namespace

MemoryBreakdown training_memory_floor(const Model& model, Optimizer& optimizer, std::int64_t batch, Precision precision) {
    MemoryBreakdown m;
    m.weights = weight_bytes(model);
    m.gradients = m.weights;
    m.optimizer_state = saturated((unsigned __int128)optimizer.state().size() * m.weights);
    std::int64_t largest = 0;
    for (const std::string& id : model.analysis().order)
        largest = std::max(largest, model.info(id).layer.output.elements());
    // A mixed policy may store even the largest activation in 16 bits: a floor counts it so.
    const std::size_t unit = dtype_size(compute_dtype(precision));
    m.activations = saturated((unsigned __int128)std::uint64_t(largest) * std::uint64_t(batch) * unit);
    return m;
}

MemoryBreakdown estimate_training_memory(const Model& model, Optimizer& optimizer, const PlanOptions& plan) {
    MemoryBreakdown m = estimate_inference_memory(model, plan);  // weights, their gradients, the plan
    m.optimizer_state = optimizer.state().size() * m.weights;
    return m;
}

MemoryBreakdown estimate_training_memory(const Graph& graph, Optimizer& optimizer, const PlanOptions& plan) {
    const Model shapes = Model::shapes_only(graph);
    MemoryBreakdown floor = training_memory_floor(shapes, optimizer, plan.batch, plan.precision);
    if (floor.total() > device_memory(device_or_cpu(plan.device)).total) {
        floor.lower_bound = true;  // choosing kernels for sizes like these would take long, for nothing
        return floor;
    }
    return estimate_training_memory(shapes, optimizer, plan);
}

MemoryBreakdown estimate_training_memory(const Project& project) {
    const auto optimizer = make_optimizer(project.training.optimizer.type, project.training.optimizer.params);
    return estimate_training_memory(project.graph, *optimizer,
                                    {.batch = project.training.batch_size, .mode = PlanMode::Train,
                                     .precision = project.training.precision});
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

void check_memory_fits(const MemoryBreakdown& need, std::int64_t limit_mb, const std::string& device, std::int64_t batch,
                       const std::string& what) {
    const std::uint64_t machine = device_memory(device_or_cpu(device)).total;
    const bool over_limit = limit_mb > 0 && need.total() > std::size_t(limit_mb) * 1000000;
    if (!over_limit && need.total() <= machine) return;
    const std::string allowed = over_limit ? "the memory limit is " + std::to_string(limit_mb) + " MB (training.memory_limit_mb)"
                                           : "the " + device_or_cpu(device) + " device has " + megabytes(machine) + " in all";
    throw input_error(what + " needs " + (need.lower_bound ? "at least " : "about ") + megabytes(need.total()) +
                      " at batch size " + std::to_string(batch) + " (weights " + megabytes(need.weights) + ", gradients " +
                      megabytes(need.gradients) + ", optimizer state " + megabytes(need.optimizer_state) + ", activations " +
                      megabytes(need.activations) + ", kernel workspaces " +
                      (need.lower_bound ? std::string("not counted") : megabytes(need.workspaces)) + ") but " + allowed +
                      "; lower the batch size or the model's size" + (over_limit ? ", or raise the limit" : ""));
}

void require_training_fits(const Project& project, const std::string& device) {
    const auto optimizer = make_optimizer(project.training.optimizer.type, project.training.optimizer.params);
    const PlanOptions plan{.device = device_or_cpu(device), .batch = project.training.batch_size, .mode = PlanMode::Train,
                           .precision = project.training.precision};
    require_precision(plan.precision, plan.device);  // the estimate would build the refused kernels
    check_memory_fits(estimate_training_memory(project.graph, *optimizer, plan), project.training.memory_limit_mb,
                      plan.device, plan.batch, "training");
}

}  // namespace lf
