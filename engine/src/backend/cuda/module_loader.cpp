#include "backend/cuda/module_loader.h"

#include "layerforge/core/runtime_module.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace lf {

namespace {

std::string abi_text(const lf_cuda_api* api) {
    return "ABI " + std::to_string(api->abi_version) + ", table of " + std::to_string(api->struct_size) + " bytes";
}

}  // namespace

std::vector<std::string> cuda_module_candidates() {
    return runtime_module_candidates("LF_CUDA_MODULE", LF_CUDA_MODULE_FILE);
}

bool cuda_driver_present() {
    void* h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!h) return false;
    dlclose(h);
    return true;
}

CudaModuleLoad load_cuda_module_at(const std::string& path) {
    CudaModuleLoad out;
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* e = dlerror();
        out.reason = "the CUDA backend module could not be loaded: " + short_dlerror(e ? e : "unknown error", path);
        return out;
    }
    auto entry = reinterpret_cast<lf_cuda_entry_fn>(dlsym(handle, LF_CUDA_ENTRY_POINT));
    const lf_cuda_api* api = entry ? entry(LF_CUDA_ABI_VERSION) : nullptr;
    if (!api) {
        out.reason = "the CUDA backend module " + path + " has no " LF_CUDA_ENTRY_POINT " entry point";
    } else if (api->abi_version != LF_CUDA_ABI_VERSION || api->struct_size != sizeof(lf_cuda_api)) {
        out.reason = "the CUDA backend module " + path + " was built for another version of Layerforge (" +
                     abi_text(api) + "; this engine expects ABI " + std::to_string(LF_CUDA_ABI_VERSION) + ", " +
                     std::to_string(sizeof(lf_cuda_api)) + " bytes)";
    }
    if (!out.reason.empty()) {
        dlclose(handle);
        return out;
    }
    // Never closed: cudart registers exit handlers inside the module.
    out.module = std::make_shared<const CudaModule>(CudaModule{api, path});
    return out;
}

CudaModuleLoad load_cuda_module() {
    const auto candidates = cuda_module_candidates();
#ifndef LF_CUDA_MODULE_BUILT
    if (!std::getenv("LF_CUDA_MODULE")) return {nullptr, "no CUDA backend in this build"};
#endif
    for (const auto& c : candidates)
        if (std::filesystem::exists(c)) return load_cuda_module_at(c);
    std::string where;
    for (const auto& c : candidates) where += (where.empty() ? "" : ", ") + c;
    return {nullptr, "the CUDA backend module was not found (looked for " + where + ")"};
}

}  // namespace lf
