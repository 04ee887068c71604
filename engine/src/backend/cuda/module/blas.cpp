#include "blas.h"

#include "context.h"
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

}  // namespace lf::cuda
