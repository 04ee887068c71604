#include "train/plan_cache.h"

#include "layerforge/core/error.h"
#include "layerforge/devices/devices.h"
#include "layerforge/train/memory_budget.h"
#include "layerforge/train/precision_policy.h"

namespace lf {

namespace {

// The project's GPU memory policy holds from the model's first allocation on (a CPU ignores it).
std::unique_ptr<DeviceModel> load_with_policy(Model& model, const std::string& device, const TrainingConfig& config) {
    set_memory_limit(device, std::uint64_t(config.gpu_memory_limit_mib) << 20);
    return load_model(model, device);
}

}  // namespace

PlanCache::PlanCache(Model& model, const std::string& device, const TrainingConfig& config, Optimizer* optimizer)
    : model_(model), device_(load_with_policy(model, device, config)), seed_(std::uint64_t(config.seed)),
      memory_limit_mb_(config.memory_limit_mb), precision_(config.precision), optimizer_(optimizer) {
    require_precision(precision_, device_->device());
}

PlanCache::~PlanCache() = default;

// Choosing the kernels for an estimate costs about as much as building them: only when asked.
MemoryBreakdown PlanCache::need(const PlanOptions& o) const {
    MemoryBreakdown m = optimizer_ ? estimate_training_memory(model_, *optimizer_, o) : estimate_inference_memory(model_, o);
    for (const auto& [key, plan] : plans_)
        if (plan) m += plan->plan->memory();  // the plans built before stay alive
    return m;
}

// Plans are the run's big allocations: the configured limit is checked against the estimate
// before one is built (the device's memory was checked before the model was, require_training_fits), and an allocation that fails anyway becomes a clear error.
PlanSlot& PlanCache::get(std::int64_t batch, bool training, BatchPart part) {
    auto& slot = plans_[{batch, training, part}];
    if (slot) return *slot;
    const PlanOptions o{.device = device_->device(), .batch = batch, .first_row = part.first_row,
                        .mode = training ? PlanMode::Train : PlanMode::Infer, .seed = seed_,
                        .precision = precision_};
    const std::string what = training ? "training" : "evaluation";
    if (memory_limit_mb_ > 0) check_memory_fits(need(o), memory_limit_mb_, o.device, batch, what);
    try {
        slot = std::make_unique<PlanSlot>(device_->make_plan(o));
    } catch (const std::bad_alloc&) {  // the partial plan is freed: there is room to estimate
        throw runtime_error("out of memory while building the " + what + " plan at batch size " +
                            std::to_string(batch) + " (it needs about " + megabytes(need(o).total()) +
                            "): lower the batch size or the model's size, or set a memory limit");
    }
    return *slot;
}

}  // namespace lf
