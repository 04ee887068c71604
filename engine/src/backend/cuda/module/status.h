#pragma once
// Turning a CUDA, cuBLAS or cuDNN status into the table's return value and lf_cuda_error.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include "backend/cuda/cuda_api.h"

namespace lf::cuda {

// 0 for success; else `code` with "what: text (name code)" in err.
int fail(lf_cuda_error* err, int code, const char* what, const char* text, const char* name);

inline int check(cudaError_t s, const char* what, lf_cuda_error* err) {
    if (s == cudaSuccess) return 0;
    return fail(err, int(s), what, cudaGetErrorString(s), cudaGetErrorName(s));
}
inline int check(cublasStatus_t s, const char* what, lf_cuda_error* err) {
    if (s == CUBLAS_STATUS_SUCCESS) return 0;
    return fail(err, int(s), what, cublasGetStatusString(s), cublasGetStatusName(s));
}
inline int check(cudnnStatus_t s, const char* what, lf_cuda_error* err) {
    if (s == CUDNN_STATUS_SUCCESS) return 0;
    return fail(err, int(s), what, cudnnGetErrorString(s), "cudnnStatus");
}

}  // namespace lf::cuda
