#pragma once
// cuDNN for softmax (the convolutions are conv.h).
#include "backend/cuda/cuda_api.h"

namespace lf::cuda {

int softmax_forward(lf_cuda_context* ctx, const float* x, float* y, int64_t rows, int64_t cols, lf_cuda_error* err);
int softmax_backward(lf_cuda_context* ctx, const float* y, const float* dy, float* dx, int64_t rows, int64_t cols,
                     lf_cuda_error* err);

}  // namespace lf::cuda
