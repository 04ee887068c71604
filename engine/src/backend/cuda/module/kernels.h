#pragma once
// The small CUDA kernels (kernels.cu): fills, bias, activations.
#include "backend/cuda/cuda_api.h"

namespace lf::cuda {

int fill(lf_cuda_context* ctx, float* dst, float value, size_t n, lf_cuda_error* err);
int add(lf_cuda_context* ctx, float* dst, const float* src, size_t n, lf_cuda_error* err);
int add_bias(lf_cuda_context* ctx, float* y, const float* bias, int64_t rows, int64_t cols, lf_cuda_error* err);
int bias_grad(lf_cuda_context* ctx, const float* dy, float* bias_grad, int64_t rows, int64_t cols, int accumulate,
              lf_cuda_error* err);
int activation_forward(lf_cuda_context* ctx, int kind, const float* x, float* y, size_t n, lf_cuda_error* err);
int activation_backward(lf_cuda_context* ctx, int kind, const float* y, const float* dy, float* dx, size_t n,
                        lf_cuda_error* err);

}  // namespace lf::cuda
