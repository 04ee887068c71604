#include "layerforge/train/precision_policy.h"

#include "layerforge/core/error.h"
#include "layerforge/devices/devices.h"
#include "layerforge/graph/model.h"

namespace lf {

void require_precision(Precision precision, const std::string& device) {
    const std::string reason = precision_unsupported(precision, device);
    if (reason.empty()) return;
    throw input_error(std::string("precision ") + to_string(precision) + " is refused on " + device + ": " + reason +
                      "; use float32 (training.precision, --precision float32)");
}

PlanProfile describe_training_plan(const Project& project, const std::string& device) {
    const Model shapes = Model::shapes_only(project.graph);
    const PlanOptions plan{.device = device, .batch = project.training.batch_size, .mode = PlanMode::Train,
                           .precision = project.training.precision};
    return backend_for(device).describe(shapes, plan);
}

}  // namespace lf
