#pragma once
// Finding the modules Layerforge opens at run time (liblayerforge_cuda.so, liblayerforge_mpi.so),
// so that no executable links CUDA or MPI and each runs on a machine without them.
#include <string>
#include <vector>

namespace lf {

// Where `file` is looked for, in order: $env_var alone when set (tests, a custom build), else
// next to the executable (the build tree) and in <bin>/../lib/layerforge (installed).
std::vector<std::string> runtime_module_candidates(const char* env_var, const std::string& file);

// dlerror's text cut to what a user reads: the library that failed and why, without the
// module's own path repeated in front ("libcublas.so.13: cannot open shared object file").
std::string short_dlerror(const std::string& text, const std::string& module_path);

}  // namespace lf
