#pragma once
// The optimizer updates on the device (update_kernels.cu).
#include "backend/cuda/cuda_api.h"

namespace lf::cuda {

int update(lf_cuda_context* ctx, const lf_cuda_update* u, const lf_cuda_update* device_u, float* w, const float* g,
           size_t n, lf_cuda_error* err);

}  // namespace lf::cuda
