#pragma once
// What every .cu file of the module shares: the launch shape of the grid-stride loops and the
// check after a launch. (Few .cu files: nvcc, the slowest step of the build, runs once per
// file and architecture.)
#include <cuda_runtime.h>

#include "status.h"

namespace lf::cuda {

constexpr int kThreads = 256;

// Enough blocks to fill the device a few times over; the loops cover the rest.
inline unsigned blocks_for(size_t n) {
    const size_t b = (n + kThreads - 1) / kThreads;
    return unsigned(b < 65535 ? (b ? b : 1) : 65535);
}

inline int launched(lf_cuda_error* err) { return check(cudaGetLastError(), "kernel launch", err); }

#define LF_GRID_STRIDE(i, n) \
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < (n); i += size_t(gridDim.x) * blockDim.x)

}  // namespace lf::cuda
