#include "layerforge/devices/devices.h"

#include "backend/cpu/cpu_backend.h"
#include "layerforge/core/error.h"

namespace lf {

BackendRegistry& backends() {
    static BackendRegistry registry = [] {
        BackendRegistry r;
        r.add(make_cpu_backend());
        return r;
    }();
    return registry;
}

Backend& backend_for(const std::string& device) {
    if (Backend* b = backends().for_device(device)) return *b;
    std::string known;
    for (const DeviceInfo& d : list_devices().devices) known += (known.empty() ? "" : ", ") + d.id;
    throw input_error("device '" + device + "' is not available (devices: " + known + ")");
}

DeviceList list_devices() {
    DeviceList list;
    bool gpu = false;
    for (const auto& b : backends().all())
        for (DeviceInfo& d : b->devices()) {
            gpu = gpu || d.kind == "cuda";
            list.devices.push_back(std::move(d));
        }
    if (!gpu) list.gpu_unavailable = "no CUDA backend in this build";
    return list;
}

DeviceMemory device_memory(const std::string& device) { return backend_for(device).memory(device); }

std::string precision_unsupported(Precision precision, const std::string& device) {
    return backend_for(device).precision_unsupported(precision, device);
}

std::unique_ptr<DeviceModel> load_model(Model& model, const std::string& device) {
    return backend_for(device).load(model, device);
}

}  // namespace lf
