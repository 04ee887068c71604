#pragma once
// A model loaded onto a device and its execution plans, built on first use per (batch size,
// mode) and kept for the run: a fit needs a training plan for full batches and one for the
// remainder, evaluation an inference plan of each. Shared by the Trainer and Inference so a
// run's memory check counts every plan it holds. Each plan comes with the host buffers of its
// loss (HostLoss).
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "layerforge/backend/backend.h"
#include "layerforge/project/project.h"
#include "layerforge/train/host_loss.h"

namespace lf {

class Optimizer;

struct PlanSlot {
    explicit PlanSlot(std::unique_ptr<Plan> p) : plan(std::move(p)), loss(*plan) {}
    std::unique_ptr<Plan> plan;
    HostLoss loss;
};

class PlanCache {
public:
    // Loads `model` onto `device`; throws lf::Error (Input) for an unknown one, or one that cannot
    // run `config.precision` fast (require_precision). Every plan gets the config's seed and
    // precision; its memory_limit_mb (<= 0: none) is checked before each is built. `optimizer`:
    // whose state the memory check adds to the plans (nullptr for inference, which binds none).
    PlanCache(Model& model, const std::string& device, const TrainingConfig& config, Optimizer* optimizer);
    ~PlanCache();

    // Builds the plan on first use; throws lf::Error (Runtime) when it would exceed the memory
    // limit or runs out of memory.
    PlanSlot& get(std::int64_t batch, bool training);
    DeviceModel& device() { return *device_; }

private:
    MemoryBreakdown need(const PlanOptions& o) const;

    Model& model_;
    std::unique_ptr<DeviceModel> device_;
    std::uint64_t seed_;
    std::int64_t memory_limit_mb_;
    Precision precision_;
    Optimizer* optimizer_;
    std::map<std::pair<std::int64_t, bool>, std::unique_ptr<PlanSlot>> plans_;
};

}  // namespace lf
