#include "layerforge/train/loss_scale.h"

#include <algorithm>

namespace lf {

void LossScale::after_step(bool finite) {
    if (!finite) {
        state_.scale = std::max(1.0, state_.scale / 2);  // Keras never scales below 1
        state_.good_steps = 0;
        return;
    }
    if (++state_.good_steps < kGrowthSteps) return;
    // float16's gradients overflow near 65504 x the scale: float32's range is never the limit.
    state_.scale = std::min(state_.scale * 2, 1e30);
    state_.good_steps = 0;
}

}  // namespace lf
