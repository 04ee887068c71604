#pragma once
// Note [The CUDA module's C entry point]
// The CUDA backend is split in two. liblayerforge_cuda.so (backend/cuda/module/, built only
// when the toolkit is found) is the one binary that links CUDA: cudart_static, cuBLAS(Lt) and
// cuDNN. It holds no engine code and exports one C function, lf_cuda_module_api(), returning
// this table of flat operations (devices, memory, copies, BLAS, kernels). Everything that
// knows the engine's types (the Backend, DeviceModel and Plan, the arena's accounting, the
// lowering of a schedule to these calls) is ordinary C++ in the static engine module
// backend/cuda, compiled in every build and tested without a GPU.
// Why not let the module implement lf::Backend itself: the engine modules are static
// libraries, so a module linking them would carry its own copies of the engine's global
// registries (the memory account, the layer table) that the executable's code never sees, and
// a module resolving them against the executable (ENABLE_EXPORTS) needs every engine symbol it
// uses to be linked into every executable and test that loads it, which the linker decides
// by what that executable happens to use. A C table has neither problem, and its ABI check is
// two integers.
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Raised whenever the table or the meaning of an entry changes; the engine refuses a module
// built for another version (module_loader.cpp).
#define LF_CUDA_ABI_VERSION 1u
#define LF_CUDA_ENTRY_POINT "lf_cuda_module_api"

// What failed, as the module saw it: the CUDA (or cuBLAS/cuDNN) status and its text.
typedef struct lf_cuda_error {
    int code;
    char text[240];
} lf_cuda_error;

typedef struct lf_cuda_device_props {
    char name[256];
    uint64_t total_memory;  // bytes
    int cc_major, cc_minor;
    int multiprocessors;
    char pci_bus_id[32];  // "0000:65:00.0": how NVML finds the same device
} lf_cuda_device_props;

// A device's stream with its cuBLAS and cuDNN handles; every kernel is queued on it.
typedef struct lf_cuda_context lf_cuda_context;

// Element-wise activations the kernels know (the numbers are part of the ABI).
enum lf_cuda_activation {
    LF_CUDA_RELU = 0,
    LF_CUDA_SIGMOID = 1,
    LF_CUDA_TANH = 2,
};

// Every entry returns 0 on success, else the failing status with `err` (may be null) filled.
typedef struct lf_cuda_api {
    uint32_t abi_version;  // LF_CUDA_ABI_VERSION of the module's build
    uint32_t struct_size;  // sizeof(lf_cuda_api) of the module's build
    int runtime_version;   // cudaRuntimeGetVersion: 13000
    int cudnn_version;     // cudnnGetVersion: 91900
    int cublas_version;    // cublasGetProperty major*10000 + minor*100 + patch

    // The driver's CUDA version (0 without a driver).
    int (*driver_version)(int* version, lf_cuda_error* err);
    // Visible devices (CUDA_VISIBLE_DEVICES applies); *n is 0 on failure.
    int (*device_count)(int* n, lf_cuda_error* err);
    int (*device_props)(int device, lf_cuda_device_props* out, lf_cuda_error* err);
    int (*mem_get_info)(int device, uint64_t* free_bytes, uint64_t* total_bytes, lf_cuda_error* err);

    int (*malloc)(int device, size_t bytes, void** ptr, lf_cuda_error* err);
    int (*free)(int device, void* ptr, lf_cuda_error* err);

    lf_cuda_context* (*context_create)(int device, lf_cuda_error* err);
    void (*context_destroy)(lf_cuda_context* ctx);
    // Waits for everything queued on the context's stream.
    int (*synchronize)(lf_cuda_context* ctx, lf_cuda_error* err);
    // Copies on the context's stream; the host side may be pageable (then the call waits).
    int (*copy_to_device)(lf_cuda_context* ctx, void* dst, const void* src, size_t bytes, lf_cuda_error* err);
    int (*copy_to_host)(lf_cuda_context* ctx, void* dst, const void* src, size_t bytes, lf_cuda_error* err);
    int (*fill)(lf_cuda_context* ctx, float* dst, float value, size_t n, lf_cuda_error* err);
    // Device to device, on the stream.
    int (*copy_on_device)(lf_cuda_context* ctx, void* dst, const void* src, size_t bytes, lf_cuda_error* err);
    // dst[i] += src[i]: the gradients of a fan-out's consumers summed.
    int (*add)(lf_cuda_context* ctx, float* dst, const float* src, size_t n, lf_cuda_error* err);

    // Row-major C[m x n] = alpha * op(A) * op(B) + beta * C in float32 with TF32 off (the
    // CPU comparison needs full precision); op transposes when trans_* is nonzero. A is m x k
    // after op, B is k x n after op, all row-major and densely packed.
    int (*sgemm)(lf_cuda_context* ctx, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                 const float* a, const float* b, float beta, float* c, lf_cuda_error* err);
    // y[r, :] += bias for every row r of rows x cols.
    int (*add_bias)(lf_cuda_context* ctx, float* y, const float* bias, int64_t rows, int64_t cols, lf_cuda_error* err);
    // bias_grad (+)= the column sums of dy (rows x cols); accumulate 0 overwrites.
    int (*bias_grad)(lf_cuda_context* ctx, const float* dy, float* bias_grad, int64_t rows, int64_t cols,
                     int accumulate, lf_cuda_error* err);
    // y = f(x); dx = dy * f'(from y) (each of these activations' derivative follows from y).
    int (*activation_forward)(lf_cuda_context* ctx, int kind, const float* x, float* y, size_t n, lf_cuda_error* err);
    int (*activation_backward)(lf_cuda_context* ctx, int kind, const float* y, const float* dy, float* dx, size_t n,
                               lf_cuda_error* err);
    // Softmax over each row of rows x cols (cuDNN, accurate); backward from y and dy.
    int (*softmax_forward)(lf_cuda_context* ctx, const float* x, float* y, int64_t rows, int64_t cols,
                           lf_cuda_error* err);
    int (*softmax_backward)(lf_cuda_context* ctx, const float* y, const float* dy, float* dx, int64_t rows,
                            int64_t cols, lf_cuda_error* err);
} lf_cuda_api;

// The one exported symbol. Returns the module's table whatever `engine_abi` is; the engine
// compares the versions, so a mismatch is reported rather than crashed on.
typedef const lf_cuda_api* (*lf_cuda_entry_fn)(uint32_t engine_abi);

#ifdef __cplusplus
}
#endif
