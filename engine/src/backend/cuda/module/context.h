#pragma once
// A device's streams and library handles, created once per device model and reused by every plan.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include "backend/cuda/cuda_api.h"

struct lf_cuda_context {
    int device = 0;
    cudaStream_t stream = nullptr;
    cudaStream_t copy_stream = nullptr;  // inputs go up on it while `stream` computes (graph.cpp)
    cublasHandle_t blas = nullptr;
    cudnnHandle_t dnn = nullptr;
};

namespace lf::cuda {

// Makes ctx's device current for the calling thread (the engine calls from its own threads).
int enter(lf_cuda_context* ctx, lf_cuda_error* err);

lf_cuda_context* context_create(int device, lf_cuda_error* err);
void context_destroy(lf_cuda_context* ctx);
int synchronize(lf_cuda_context* ctx, lf_cuda_error* err);
int copy_to_device(lf_cuda_context* ctx, void* dst, const void* src, size_t bytes, lf_cuda_error* err);
int copy_on_device(lf_cuda_context* ctx, void* dst, const void* src, size_t bytes, lf_cuda_error* err);
int copy_to_host(lf_cuda_context* ctx, void* dst, const void* src, size_t bytes, lf_cuda_error* err);
int copy_2d(lf_cuda_context* ctx, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t rows,
            lf_cuda_error* err);

}  // namespace lf::cuda
