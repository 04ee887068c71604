#include "backend/cuda/nvml.h"

#include <dlfcn.h>

namespace lf {

namespace {

// The few NVML declarations used, from its public ABI (the toolkit here ships no nvml.h).
using NvmlReturn = int;  // 0: NVML_SUCCESS
using NvmlDevice = struct NvmlDeviceOpaque*;
struct NvmlUtilization {
    unsigned gpu, memory;
};
using InitFn = NvmlReturn (*)();
using DriverVersionFn = NvmlReturn (*)(char*, unsigned);
using HandleByPciFn = NvmlReturn (*)(const char*, NvmlDevice*);
using UtilizationFn = NvmlReturn (*)(NvmlDevice, NvmlUtilization*);

template <class F>
F symbol(void* lib, const char* name) {
    return lib ? reinterpret_cast<F>(dlsym(lib, name)) : nullptr;
}

}  // namespace

const Nvml& Nvml::instance() {
    static const Nvml nvml;
    return nvml;
}

// Never shut down: the process may read utilisation until it exits.
Nvml::Nvml() {
    lib_ = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL);
    auto init = symbol<InitFn>(lib_, "nvmlInit_v2");
    present_ = init && init() == 0;
}

std::string Nvml::driver_version() const {
    auto f = present_ ? symbol<DriverVersionFn>(lib_, "nvmlSystemGetDriverVersion") : nullptr;
    char text[96] = {};
    return f && f(text, sizeof text) == 0 ? std::string(text) : std::string();
}

std::optional<int> Nvml::utilization(const std::string& pci_bus_id) const {
    auto handle = present_ ? symbol<HandleByPciFn>(lib_, "nvmlDeviceGetHandleByPciBusId_v2") : nullptr;
    auto rates = present_ ? symbol<UtilizationFn>(lib_, "nvmlDeviceGetUtilizationRates") : nullptr;
    NvmlDevice d = nullptr;
    NvmlUtilization u{};
    if (!handle || !rates || handle(pci_bus_id.c_str(), &d) != 0 || rates(d, &u) != 0) return std::nullopt;
    return int(u.gpu);
}

}  // namespace lf
