#pragma once
// A plan the trainer built, with the host buffers of its loss.
#include <memory>

#include "layerforge/backend/plan.h"
#include "layerforge/train/trainer.h"
#include "layerforge/train/host_loss.h"

namespace lf {

struct Trainer::PlanSlot {
    explicit PlanSlot(std::unique_ptr<Plan> p) : plan(std::move(p)), loss(*plan) {}
    std::unique_ptr<Plan> plan;
    HostLoss loss;
};

}  // namespace lf
