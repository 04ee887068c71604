#include "dnn.h"

#include <climits>

#include "context.h"
#include "library_types.h"
#include "status.h"

namespace lf::cuda {

namespace {

// rows x cols as N x C x 1 x 1: CUDNN_SOFTMAX_MODE_CHANNEL then normalises each row.
struct RowsDesc {
    cudnnTensorDescriptor_t d = nullptr;
    int status = 0;
    RowsDesc(int dtype, int64_t rows, int64_t cols, lf_cuda_error* err) {
        if (rows > INT_MAX || cols > INT_MAX) {
            status = fail(err, int(CUDNN_STATUS_BAD_PARAM), "softmax", "more than 2^31 rows or columns", "cudnnStatus");
            return;
        }
        status = check(cudnnCreateTensorDescriptor(&d), "cudnnCreateTensorDescriptor", err);
        if (!status)
            status = check(cudnnSetTensor4dDescriptor(d, CUDNN_TENSOR_NCHW, cudnn_type(dtype), int(rows), int(cols), 1, 1),
                           "cudnnSetTensor4dDescriptor", err);
    }
    ~RowsDesc() {
        if (d) cudnnDestroyTensorDescriptor(d);
    }
};

}  // namespace

int softmax_forward(lf_cuda_context* ctx, int dtype, const void* x, void* y, int64_t rows, int64_t cols,
                    lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    RowsDesc desc(dtype, rows, cols, err);
    if (desc.status) return desc.status;
    const float one = 1.f, zero = 0.f;
    return check(cudnnSoftmaxForward(ctx->dnn, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one, desc.d, x,
                                     &zero, desc.d, y),
                 "cudnnSoftmaxForward", err);
}

int softmax_backward(lf_cuda_context* ctx, int dtype, const void* y, const void* dy, void* dx, int64_t rows,
                     int64_t cols, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    RowsDesc desc(dtype, rows, cols, err);
    if (desc.status) return desc.status;
    const float one = 1.f, zero = 0.f;
    return check(cudnnSoftmaxBackward(ctx->dnn, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one, desc.d, y,
                                      desc.d, dy, &zero, desc.d, dx),
                 "cudnnSoftmaxBackward", err);
}

}  // namespace lf::cuda
