#include "layerforge/devices/devices.h"

#include "backend/cpu/cpu_backend.h"
#include "backend/cuda/cuda_backend.h"
#include "layerforge/core/error.h"

namespace lf {

namespace {

// Why the CUDA backend is not registered ("" when it is); decided with the registry.
std::string& gpu_reason() {
    static std::string reason;
    return reason;
}

}  // namespace

// The CUDA module is tried once, when the registry is first asked for: a process that never
// lists devices or trains never loads CUDA.
BackendRegistry& backends() {
    static BackendRegistry registry = [] {
        BackendRegistry r;
        r.add(make_cpu_backend());
        CudaProbe cuda = probe_cuda();
        if (cuda.backend) r.add(std::move(cuda.backend));
        gpu_reason() = cuda.reason;
        return r;
    }();
    return registry;
}

Backend& backend_for(const std::string& device) {
    if (Backend* b = backends().for_device(device)) return *b;
    const DeviceList list = list_devices();
    std::string known;
    for (const DeviceInfo& d : list.devices) known += (known.empty() ? "" : ", ") + d.id;
    // Asked for a GPU where none is offered: say why, not only what there is.
    const std::string why = device.rfind("cuda", 0) == 0 && !list.gpu_unavailable.empty()
                                ? "; no GPU: " + list.gpu_unavailable
                                : "";
    throw input_error("device '" + device + "' is not available (devices: " + known + ")" + why);
}

DeviceList list_devices() {
    DeviceList list;
    bool gpu = false;
    for (const auto& b : backends().all())
        for (DeviceInfo& d : b->devices()) {
            gpu = gpu || d.kind == "cuda";
            list.devices.push_back(std::move(d));
        }
    if (!gpu) list.gpu_unavailable = gpu_reason().empty() ? "no CUDA device" : gpu_reason();
    return list;
}

DeviceMemory device_memory(const std::string& device) { return backend_for(device).memory(device); }

std::string precision_unsupported(Precision precision, const std::string& device) {
    return backend_for(device).precision_unsupported(precision, device);
}

void set_memory_limit(const std::string& device, std::uint64_t limit_bytes) {
    backend_for(device).set_memory_limit(device, limit_bytes);
}

std::unique_ptr<DeviceModel> load_model(Model& model, const std::string& device) {
    return backend_for(device).load(model, device);
}

}  // namespace lf
