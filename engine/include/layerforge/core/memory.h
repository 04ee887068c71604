#pragma once
// Memory the engine holds, by purpose and per device: what `layerforge-cli info` estimates before
// training and what the studio's gauges read while a run goes on.
#include <cstddef>
#include <string>

namespace lf {

struct MemoryBreakdown {
    std::size_t weights = 0;          // parameters, trainable or not
    std::size_t gradients = 0;        // of the weights and of every activation that needs one
    std::size_t optimizer_state = 0;  // Adam's m and v, momentum, ...
    std::size_t activations = 0;      // layer outputs (inputs included), planned once per batch size
    std::size_t workspaces = 0;       // kernel-private: reordered weights, pooling indices, statistics
    bool lower_bound = false;         // only a floor was counted (too big to plan): "at least"
    std::size_t total() const { return weights + gradients + optimizer_state + activations + workspaces; }
    MemoryBreakdown& operator+=(const MemoryBreakdown& o);
    MemoryBreakdown& operator-=(const MemoryBreakdown& o);
};

// Bytes in use now, and the breakdown at the moment the total peaked, per device ("cpu").
// Models, plans and optimizers register what they own through a MemoryLease; registration
// happens when they are built, never per training step.
MemoryBreakdown memory_in_use(const std::string& device = "cpu");
MemoryBreakdown memory_peak(const std::string& device = "cpu");
// Starts a new peak from what is in use now, e.g. when a new run begins, so its gauge shows
// that run's high-water mark rather than an earlier one's.
void reset_peak(const std::string& device = "cpu");

// Adds its bytes to the device's account while it lives; copies count again.
class MemoryLease {
public:
    MemoryLease() = default;
    explicit MemoryLease(const MemoryBreakdown& bytes, std::string device = "cpu");
    MemoryLease(const MemoryLease& o);
    MemoryLease& operator=(const MemoryLease& o);
    ~MemoryLease();
    const MemoryBreakdown& bytes() const { return bytes_; }

private:
    MemoryBreakdown bytes_;
    std::string device_ = "cpu";
};

}  // namespace lf
