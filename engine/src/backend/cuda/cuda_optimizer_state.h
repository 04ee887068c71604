#pragma once
// The device copies of an optimizer's state arrays (Note [A rule's step on a device] in
// layerforge/backend/weight_update.h): filled from the rule's host arrays before the first
// device step and whenever the host state may have changed (a restore or resume pushes the
// weights), copied back with the weights so that a checkpoint reads the device's state.
#include <array>

#include "backend/cuda/cuda_context.h"
#include "backend/cuda/device_buffer.h"
#include "layerforge/backend/weight_update.h"

namespace lf {

class CudaOptimizerState {
public:
    CudaOptimizerState(const CudaContext& ctx, DeviceArena& arena) : ctx_(ctx), arena_(arena) {}

    // The device arrays for this step's host arrays (n floats each), uploaded when they are new
    // or stale; null where the step has none. Allocates only when the rule or n changes.
    std::array<float*, 2> device_arrays(const UpdateStep& step, std::size_t n);
    // Device -> the rule's host arrays (nothing before the first device step).
    void to_host() const;
    // The host arrays are the truth again: the next step uploads them.
    void host_changed() { stale_ = true; }

private:
    const CudaContext& ctx_;
    DeviceArena& arena_;
    std::array<float*, 2> host_{};
    std::array<DeviceBuffer, 2> device_;
    std::size_t n_ = 0;
    bool stale_ = true;
};

}  // namespace lf
