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
#include <tuple>

#include "layerforge/backend/backend.h"
#include "layerforge/project/project.h"
#include "layerforge/train/host_loss.h"

namespace lf {

class Optimizer;

// Where a plan's rows lie in the global batch of a data-parallel step: dropout draws the masks
// of those rows (PlanOptions::first_row), and a rank's plans for the full batches and for the
// remainder stay apart even when they hold as many rows (their masks count steps apart).
// {} for a single process.
struct BatchPart {
    std::int64_t first_row = 0;
    std::int64_t global_rows = 0;
    auto operator<=>(const BatchPart&) const = default;
};

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
    PlanSlot& get(std::int64_t batch, bool training, BatchPart part = {});
    DeviceModel& device() { return *device_; }

private:
    MemoryBreakdown need(const PlanOptions& o) const;

    Model& model_;
    std::unique_ptr<DeviceModel> device_;
    std::uint64_t seed_;
    std::int64_t memory_limit_mb_;
    Precision precision_;
    Optimizer* optimizer_;
    std::map<std::tuple<std::int64_t, bool, BatchPart>, std::unique_ptr<PlanSlot>> plans_;
};

}  // namespace lf
