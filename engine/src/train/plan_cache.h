#pragma once
// The execution plans of one model, built on first use per (batch size, mode) and kept for the
// run: a fit needs a training plan for full batches and one for the remainder, evaluation an
// inference plan of each. Shared by the Trainer and Inference so a run's memory check counts
// every plan it holds.
#include <cstdint>
#include <map>
#include <memory>
#include <utility>

#include "layerforge/graph/plan.h"

namespace lf {

class Optimizer;

class PlanCache {
public:
    // `optimizer`: whose state the memory check adds to the plans (nullptr for inference, which
    // binds none). `memory_limit_mb` <= 0: no limit.
    PlanCache(Model& model, std::uint64_t seed, std::int64_t memory_limit_mb, Optimizer* optimizer);
    ~PlanCache();

    // Builds the plan on first use; throws lf::Error (Runtime) when it would exceed the memory
    // limit or runs out of memory.
    Plan& get(std::int64_t batch, bool training);

private:
    MemoryBreakdown need(const PlanOptions& o) const;

    Model& model_;
    std::uint64_t seed_;
    std::int64_t memory_limit_mb_;
    Optimizer* optimizer_;
    std::map<std::pair<std::int64_t, bool>, std::unique_ptr<Plan>> plans_;
};

}  // namespace lf
