#include "layerforge/backend/backend.h"

#include "layerforge/core/error.h"

namespace lf {

void BackendRegistry::add(std::unique_ptr<Backend> backend) {
    for (const auto& b : backends_)
        if (b->name() == backend->name()) throw runtime_error("backend '" + backend->name() + "' is registered twice");
    backends_.push_back(std::move(backend));
}

Backend* BackendRegistry::for_device(const std::string& device) const {
    for (const auto& b : backends_)
        if (b->has_device(device)) return b.get();
    return nullptr;
}

}  // namespace lf
