#pragma once
// cuBLAS for the Dense layers.
#include "backend/cuda/cuda_api.h"

namespace lf::cuda {

int sgemm(lf_cuda_context* ctx, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha,
          const float* a, const float* b, float beta, float* c, lf_cuda_error* err);
int gemm(lf_cuda_context* ctx, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, int ab_dtype, int c_dtype,
         const void* a, const void* b, int accumulate, void* c, lf_cuda_error* err);

}  // namespace lf::cuda
