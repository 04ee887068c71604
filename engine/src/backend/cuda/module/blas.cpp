#include "blas.h"

#include "context.h"
#include "library_types.h"
#include "status.h"

namespace lf::cuda {

// cuBLAS is column-major: a row-major C = op(A) op(B) is the column-major C^T = op(B)^T op(A)^T,
// so the operands swap and each keeps its own transpose flag; leading dimensions are the row
// lengths as stored.
int sgemm(lf_cuda_context* ctx, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha,
          const float* a, const float* b, float beta, float* c, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    const int64_t lda = trans_a ? m : k, ldb = trans_b ? k : n;
    return check(cublasSgemm_64(ctx->blas, trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, n,
                                m, k, &alpha, b, ldb, a, lda, &beta, c, n),
                 "cublasSgemm", err);
}

// The same operand swap as sgemm's; 16-bit A and B, C 16-bit or float32, float32 accumulation
// (cuBLAS picks tensor-core kernels for these types by itself).
int gemm(lf_cuda_context* ctx, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, int ab_dtype, int c_dtype,
         const void* a, const void* b, int accumulate, void* c, lf_cuda_error* err) {
    if (ab_dtype == LF_CUDA_F32 || (c_dtype != ab_dtype && c_dtype != LF_CUDA_F32))
        return fail(err, int(CUBLAS_STATUS_INVALID_VALUE), "gemm", "A and B must be 16-bit, C the same or float32",
                    "cublasStatus");
    if (int s = enter(ctx, err)) return s;
    const int64_t lda = trans_a ? m : k, ldb = trans_b ? k : n;
    const float alpha = 1.f, beta = accumulate ? 1.f : 0.f;
    // The handle stays pedantic for sgemm (no TF32); 16-bit operands may take tensor cores.
    if (int s = check(cublasSetMathMode(ctx->blas, CUBLAS_DEFAULT_MATH), "cublasSetMathMode", err)) return s;
    const int s = check(cublasGemmEx_64(ctx->blas, trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, n,
                                 m, k, &alpha, b, blas_type(ab_dtype), ldb, a, blas_type(ab_dtype), lda, &beta, c,
                                 blas_type(c_dtype), n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx", err);
    if (int r = check(cublasSetMathMode(ctx->blas, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode", err)) return s ? s : r;
    return s;
}

}  // namespace lf::cuda
