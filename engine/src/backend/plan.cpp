// What every plan does unless its backend does it otherwise.
#include "layerforge/backend/plan.h"

#include "layerforge/backend/backend.h"

namespace lf {

void Plan::backward_and_update(DeviceModel& device, WeightUpdate& rule, double lr) {
    backward();
    device.update(rule, lr);
}

const std::string& Plan::execution() const {
    static const std::string nothing;
    return nothing;
}

}  // namespace lf
