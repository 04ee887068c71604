#pragma once
// The backends this build offers and their devices: the CPU backend always, others as they are
// registered (a test's backend; the CUDA module once it exists). The studio's device list and
// gauges, the CLI and the trainer all ask here.
#include <memory>
#include <string>

#include "layerforge/backend/backend.h"
#include "layerforge/backend/device.h"

namespace lf {

// Holds the CPU backend from the first call on.
BackendRegistry& backends();

// The backend that has `device`; throws lf::Error (Input) naming the devices there are.
Backend& backend_for(const std::string& device);

DeviceList list_devices();  // every backend's devices, the CPU first

// Throws lf::Error (Input) for a device id that list_devices() does not report.
DeviceMemory device_memory(const std::string& device = "cpu");

// Backend::precision_unsupported of the backend that has `device` ("" when it runs it fast).
std::string precision_unsupported(Precision precision, const std::string& device = "cpu");

// Backend::set_memory_limit of the backend that has `device` (0: grow on demand).
void set_memory_limit(const std::string& device, std::uint64_t limit_bytes);

// `model` loaded onto `device` (its backend found in backends()).
std::unique_ptr<DeviceModel> load_model(Model& model, const std::string& device);

}  // namespace lf
