#pragma once
// Finding and opening liblayerforge_cuda.so, with a reason a user can act on for every way it
// can fail. Nothing here needs CUDA: the module brings it.
#include <memory>
#include <string>
#include <vector>

#include "backend/cuda/cuda_api.h"
#include "layerforge/core/runtime_module.h"  // short_dlerror

namespace lf {

// An opened module; it stays loaded for the life of the process (plans hold its functions).
struct CudaModule {
    const lf_cuda_api* api = nullptr;
    std::string path;
};

struct CudaModuleLoad {
    std::shared_ptr<const CudaModule> module;  // null on failure
    std::string reason;                        // why not, when null
};

// Where the module is looked for, in order: $LF_CUDA_MODULE alone when set (tests, a custom
// build), else next to the executable (the build tree) and in <bin>/../lib/layerforge (installed).
std::vector<std::string> cuda_module_candidates();

// The first candidate that exists, opened; "no CUDA backend in this build" where it was not built.
CudaModuleLoad load_cuda_module();
// Opens `path` and checks its ABI against this engine's.
CudaModuleLoad load_cuda_module_at(const std::string& path);

// Whether the NVIDIA driver's libcuda.so.1 can be loaded (the toolkit's link stub does not count).
bool cuda_driver_present();

}  // namespace lf
