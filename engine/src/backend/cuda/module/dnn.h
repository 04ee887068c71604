#pragma once
// cuDNN for softmax (the convolutions are conv.h).
#include "backend/cuda/cuda_api.h"

namespace lf::cuda {

int softmax_forward(lf_cuda_context* ctx, int dtype, const void* x, void* y, int64_t rows, int64_t cols,
                    lf_cuda_error* err);
int softmax_backward(lf_cuda_context* ctx, int dtype, const void* y, const void* dy, void* dx, int64_t rows,
                     int64_t cols, lf_cuda_error* err);

}  // namespace lf::cuda
