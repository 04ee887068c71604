#pragma once
// Per-channel reductions, batch normalization and window pooling (layer_kernels.cu).
#include "backend/cuda/cuda_api.h"

namespace lf::cuda {

int bias_grad(lf_cuda_context* ctx, int dtype, const void* dy, float* bias_grad, int64_t rows, int64_t cols,
              int accumulate, float* partials, lf_cuda_error* err);
int bn_stats(lf_cuda_context* ctx, int dtype, const void* x, float* mean, float* var, int64_t rows, int64_t c,
             float* partials, lf_cuda_error* err);
int bn_forward(lf_cuda_context* ctx, int dtype, const void* x, const float* mean, const float* var, const float* gamma,
               const float* beta, float eps, void* y, int64_t rows, int64_t c, lf_cuda_error* err);
int bn_moving(lf_cuda_context* ctx, const float* mean, const float* var, float* moving_mean, float* moving_var,
              float momentum, float bessel, int64_t c, lf_cuda_error* err);
int bn_backward(lf_cuda_context* ctx, int dtype, const void* x, const void* dy, const float* mean, const float* var,
                const float* gamma, float eps, float* dgamma, float* dbeta, void* dx, int64_t rows, int64_t c,
                float* partials, lf_cuda_error* err);
int pool_forward(lf_cuda_context* ctx, const lf_cuda_pool_shape* p, const void* x, void* y, int32_t* argmax,
                 lf_cuda_error* err);
int pool_backward(lf_cuda_context* ctx, const lf_cuda_pool_shape* p, const void* dy, const int32_t* argmax, void* dx,
                  lf_cuda_error* err);

}  // namespace lf::cuda
