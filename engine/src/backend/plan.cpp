// What every plan does unless its backend does it otherwise.
#include "layerforge/backend/plan.h"

#include "layerforge/backend/backend.h"
#include "layerforge/core/error.h"

namespace lf {

void Plan::backward_and_update(DeviceModel& device, WeightUpdate& rule, double lr) {
    backward();
    device.update(rule, lr);
}

const std::string& Plan::execution() const {
    static const std::string nothing;
    return nothing;
}

void DeviceModel::set_loss_scale(float) {
    throw runtime_error("device " + device() + " has no loss scaling: mixed_float16 runs on a GPU");
}

}  // namespace lf
