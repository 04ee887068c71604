#include "mpi_loader.h"

#include <dlfcn.h>

#include <filesystem>
#include <string>

#include "layerforge/core/error.h"
#include "layerforge/core/runtime_module.h"
#include "mpi_entry.h"

namespace lf {

std::unique_ptr<Communicator> join_mpi_job(double timeout_seconds) {
    const char* file = "liblayerforge_mpi.so";
    std::string path;
    for (const std::string& c : runtime_module_candidates("LF_MPI_MODULE", file))
        if (std::filesystem::exists(c)) {
            path = c;
            break;
        }
    if (path.empty())
        throw input_error(std::string("--distributed needs ") + file +
                          ", which this installation lacks (it is built where Open MPI's development files are installed)");
    // RTLD_GLOBAL: Open MPI opens its own components, which look for libmpi's symbols globally.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
        const char* e = dlerror();
        throw input_error("--distributed: the MPI module could not be loaded: " +
                          short_dlerror(e ? e : "unknown error", path) + " (install Open MPI: openmpi-bin)");
    }
    auto open = reinterpret_cast<lf_mpi_open_fn>(dlsym(handle, LF_MPI_ENTRY_POINT));
    if (!open) throw input_error("--distributed: " + path + " has no " LF_MPI_ENTRY_POINT " entry point");
    char error[512] = {};
    Communicator* world = open(LF_MPI_ABI_VERSION, timeout_seconds, 10 * timeout_seconds, error, sizeof error);
    if (!world) throw input_error(std::string("--distributed: ") + error);
    return std::unique_ptr<Communicator>(world);  // the module stays loaded: MPI lives in it until exit
}

}  // namespace lf
