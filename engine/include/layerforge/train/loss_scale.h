#pragma once
// Dynamic loss scaling for mixed_float16, as Keras' LossScaleOptimizer does it: the loss's
// gradient is multiplied by `scale` before the backward pass, so that small gradients survive
// float16's narrow range; the update reads the gradients divided by it, and a step whose scaled
// gradients overflowed (any infinite or NaN) is skipped: weights, optimizer state and its
// iteration count stay as they were. The scale halves at each skipped step and doubles after
// `growth_steps` applied steps in a row. Its state is part of a checkpoint, so a resumed run
// scales and skips exactly as the uninterrupted one.
#include <cstdint>

namespace lf {

class LossScale {
public:
    struct State {
        double scale = 32768;         // Keras' initial_scale, 2^15
        std::int64_t good_steps = 0;  // applied steps since the scale last changed
        bool operator==(const State&) const = default;
    };
    static constexpr std::int64_t kGrowthSteps = 2000;  // Keras' dynamic_growth_steps

    LossScale() = default;
    explicit LossScale(State s) : state_(s) {}
    float scale() const { return float(state_.scale); }
    const State& state() const { return state_; }
    // After a step: whether its gradients were all finite (the update was applied).
    void after_step(bool finite);

private:
    State state_;
};

}  // namespace lf
