#pragma once
// What every .cu file of the module shares: the launch shape of the grid-stride loops and the
// check after a launch. (Few .cu files: nvcc, the slowest step of the build, runs once per
// file and architecture.)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
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

// Activations are stored as float, __nv_bfloat16 or __half (lf_cuda_dtype) and computed in
// float: ld() widens a stored value, st<T>() rounds a result to nearest even.
__device__ inline float ld(float v) { return v; }
__device__ inline float ld(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ inline float ld(__half v) { return __half2float(v); }
template <class T> __device__ inline T st(float v);
template <> __device__ inline float st<float>(float v) { return v; }
template <> __device__ inline __nv_bfloat16 st<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }
template <> __device__ inline __half st<__half>(float v) { return __float2half_rn(v); }


// Runs `body` with T the storage type of `dtype`; an unknown dtype fails the entry `what`.
#define LF_DISPATCH(dtype, T, what, err, ...)                                                              \
    switch (dtype) {                                                                                       \
    case LF_CUDA_F32: { using T = float; __VA_ARGS__; } break;                                            \
    case LF_CUDA_BF16: { using T = __nv_bfloat16; __VA_ARGS__; } break;                                   \
    case LF_CUDA_F16: { using T = __half; __VA_ARGS__; } break;                                           \
    default: return ::lf::cuda::fail(err, int(cudaErrorInvalidValue), what, "unknown storage type", "lf"); \
    }

}  // namespace lf::cuda
