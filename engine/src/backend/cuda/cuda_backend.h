#pragma once
// The CUDA backend as the registry sees it: the module's devices, their memory and the models
// loaded onto them. probe_cuda() decides whether it is offered at all, and why not.
#include <memory>
#include <string>

#include "backend/cuda/device_arena.h"
#include "backend/cuda/module_loader.h"
#include "layerforge/backend/backend.h"

namespace lf {

struct CudaProbe {
    std::unique_ptr<Backend> backend;  // null when no GPU is offered
    std::string reason;                // why, then ("no CUDA driver: libcuda.so.1 not found")
};

// Opens the module (load_cuda_module() unless `load` is given) and counts its devices: a
// backend only when there is at least one. `driver_present` is cuda_driver_present(), a
// parameter so that a test can reach the CUDA runtime's own answer without a driver.
CudaProbe probe_cuda(const CudaModuleLoad& load, bool (*driver_present)() = cuda_driver_present);
CudaProbe probe_cuda();

// "cuda:3" -> 3; -1 for anything else ("cuda", "cuda:x", "cpu").
int cuda_device_index(const std::string& id);

// Why a device of compute capability `cc` (x 10: 90 for sm_90) cannot run `precision` fast ("" when
// it can): bfloat16 tensor cores need sm_80, float16 ones sm_70.
std::string cuda_precision_unsupported(Precision precision, int cc);

// "13.0" from the CUDA version number 13000.
std::string cuda_version_text(int version);

// The arena of a device of the CUDA backend (`backend` must be one probe_cuda returned).
DeviceArena& cuda_arena(Backend& backend, const std::string& device);

}  // namespace lf
