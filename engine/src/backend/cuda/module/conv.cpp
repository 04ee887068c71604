#include "conv.h"

#include <climits>

#include "context.h"
#include "library_types.h"
#include "status.h"

// NHWC tensors and KRSC filters (cuDNN's NHWC filter format). float32 with FMA math only:
// CUDNN_DEFAULT_MATH on float data may use TF32 tensor cores on sm_80+, which the CPU
// comparison cannot allow (TF32 is a precision policy, not the default). bfloat16 and float16
// data accumulate in float32 (cuDNN's pseudo-half configurations) on tensor cores.
struct lf_cuda_conv {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    bool tensor_cores = false;
};

namespace lf::cuda {

namespace {

bool fits_int(const lf_cuda_conv_shape& s) {
    for (int64_t v : {s.n, s.h, s.w, s.c, s.k, s.r, s.s, s.out_h, s.out_w})
        if (v <= 0 || v > INT_MAX) return false;
    return s.groups > 0 && s.c % s.groups == 0 && s.k % s.groups == 0;
}

int make(lf_cuda_conv* d, const lf_cuda_conv_shape& s, lf_cuda_error* err) {
    const cudnnDataType_t type = cudnn_type(s.dtype);
    d->tensor_cores = s.dtype != LF_CUDA_F32;
    int st = check(cudnnCreateTensorDescriptor(&d->x), "cudnnCreateTensorDescriptor", err);
    if (!st) st = check(cudnnCreateTensorDescriptor(&d->y), "cudnnCreateTensorDescriptor", err);
    if (!st) st = check(cudnnCreateFilterDescriptor(&d->w), "cudnnCreateFilterDescriptor", err);
    if (!st) st = check(cudnnCreateConvolutionDescriptor(&d->conv), "cudnnCreateConvolutionDescriptor", err);
    if (!st)
        st = check(cudnnSetTensor4dDescriptor(d->x, CUDNN_TENSOR_NHWC, type, int(s.n), int(s.c), int(s.h),
                                              int(s.w)),
                   "cudnnSetTensor4dDescriptor (input)", err);
    if (!st)
        st = check(cudnnSetFilter4dDescriptor(d->w, type, CUDNN_TENSOR_NHWC, int(s.k), int(s.c / s.groups),
                                              int(s.r), int(s.s)),
                   "cudnnSetFilter4dDescriptor", err);
    if (!st)
        st = check(cudnnSetConvolution2dDescriptor(d->conv, s.pad_h, s.pad_w, s.stride_h, s.stride_w, s.dilation_h,
                                                   s.dilation_w, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
                   "cudnnSetConvolution2dDescriptor", err);
    if (!st) st = check(cudnnSetConvolutionGroupCount(d->conv, s.groups), "cudnnSetConvolutionGroupCount", err);
    if (!st)
        st = check(cudnnSetConvolutionMathType(d->conv, d->tensor_cores ? CUDNN_TENSOR_OP_MATH : CUDNN_FMA_MATH),
                   "cudnnSetConvolutionMathType", err);
    int n = 0, c = 0, h = 0, w = 0;
    if (!st)
        st = check(cudnnGetConvolution2dForwardOutputDim(d->conv, d->x, d->w, &n, &c, &h, &w),
                   "cudnnGetConvolution2dForwardOutputDim", err);
    if (!st && (h != s.out_h || w != s.out_w || c != s.k))
        return fail(err, int(CUDNN_STATUS_BAD_PARAM), "conv_create", "cuDNN's output size differs from the layer's",
                    "cudnnStatus");
    if (!st)
        st = check(cudnnSetTensor4dDescriptor(d->y, CUDNN_TENSOR_NHWC, type, n, c, h, w),
                   "cudnnSetTensor4dDescriptor (output)", err);
    return st;
}

// The heuristics rank every algorithm; the first that succeeds within the budget wins.
// The heuristics' first deterministic algorithm that fits (ABI 4): a run repeats bit for bit,
// as a replayed CUDA graph must repeat the eager pass; a nondeterministic one only when no
// deterministic one fits.
// Tensor-core algorithms only for 16-bit data (on float32 they would round to TF32).
template <class Perf>
int pick(const Perf* perf, int count, bool tensor_cores, size_t max_workspace, int* algo, size_t* workspace,
         lf_cuda_error* err) {
    for (bool deterministic : {true, false})
        for (int i = 0; i < count; ++i)
            if (perf[i].status == CUDNN_STATUS_SUCCESS && perf[i].memory <= max_workspace &&
                (tensor_cores || perf[i].mathType != CUDNN_TENSOR_OP_MATH) &&
                (!deterministic || perf[i].determinism == CUDNN_DETERMINISTIC)) {
                *algo = int(perf[i].algo);
                *workspace = perf[i].memory;
                return 0;
            }
    return fail(err, int(CUDNN_STATUS_NOT_SUPPORTED), "conv_choose", "no cuDNN algorithm fits the workspace budget",
                "cudnnStatus");
}

}  // namespace

lf_cuda_conv* conv_create(lf_cuda_context* ctx, const lf_cuda_conv_shape* shape, lf_cuda_error* err) {
    if (!fits_int(*shape)) {
        fail(err, int(CUDNN_STATUS_BAD_PARAM), "conv_create", "a dimension outside 1..2^31 or groups not dividing",
             "cudnnStatus");
        return nullptr;
    }
    if (enter(ctx, err)) return nullptr;
    auto* d = new lf_cuda_conv;
    if (make(d, *shape, err)) {
        conv_destroy(d);
        return nullptr;
    }
    return d;
}

void conv_destroy(lf_cuda_conv* d) {
    if (!d) return;
    if (d->conv) cudnnDestroyConvolutionDescriptor(d->conv);
    if (d->w) cudnnDestroyFilterDescriptor(d->w);
    if (d->y) cudnnDestroyTensorDescriptor(d->y);
    if (d->x) cudnnDestroyTensorDescriptor(d->x);
    delete d;
}

int conv_choose(lf_cuda_context* ctx, lf_cuda_conv* d, int pass, size_t max_workspace, int* algo, size_t* workspace,
                lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    constexpr int kMax = 16;
    int count = 0;
    if (pass == LF_CUDA_CONV_FORWARD) {
        cudnnConvolutionFwdAlgoPerf_t perf[kMax];
        if (int s = check(cudnnGetConvolutionForwardAlgorithm_v7(ctx->dnn, d->x, d->w, d->conv, d->y, kMax, &count, perf),
                          "cudnnGetConvolutionForwardAlgorithm_v7", err))
            return s;
        return pick(perf, count, d->tensor_cores, max_workspace, algo, workspace, err);
    }
    if (pass == LF_CUDA_CONV_BACKWARD_DATA) {
        cudnnConvolutionBwdDataAlgoPerf_t perf[kMax];
        if (int s = check(cudnnGetConvolutionBackwardDataAlgorithm_v7(ctx->dnn, d->w, d->y, d->conv, d->x, kMax, &count,
                                                                      perf),
                          "cudnnGetConvolutionBackwardDataAlgorithm_v7", err))
            return s;
        return pick(perf, count, d->tensor_cores, max_workspace, algo, workspace, err);
    }
    cudnnConvolutionBwdFilterAlgoPerf_t perf[kMax];
    if (int s = check(cudnnGetConvolutionBackwardFilterAlgorithm_v7(ctx->dnn, d->x, d->y, d->conv, d->w, kMax, &count,
                                                                    perf),
                      "cudnnGetConvolutionBackwardFilterAlgorithm_v7", err))
        return s;
    return pick(perf, count, d->tensor_cores, max_workspace, algo, workspace, err);
}

int conv_forward(lf_cuda_context* ctx, lf_cuda_conv* d, int algo, const void* x, const void* w, void* y,
                 void* workspace, size_t workspace_bytes, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    const float one = 1.f, zero = 0.f;
    return check(cudnnConvolutionForward(ctx->dnn, &one, d->x, x, d->w, w, d->conv, cudnnConvolutionFwdAlgo_t(algo),
                                         workspace, workspace_bytes, &zero, d->y, y),
                 "cudnnConvolutionForward", err);
}

int conv_backward_data(lf_cuda_context* ctx, lf_cuda_conv* d, int algo, const void* w, const void* dy, void* dx,
                       void* workspace, size_t workspace_bytes, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    const float one = 1.f, zero = 0.f;
    return check(cudnnConvolutionBackwardData(ctx->dnn, &one, d->w, w, d->y, dy, d->conv,
                                              cudnnConvolutionBwdDataAlgo_t(algo), workspace, workspace_bytes, &zero,
                                              d->x, dx),
                 "cudnnConvolutionBackwardData", err);
}

int conv_backward_filter(lf_cuda_context* ctx, lf_cuda_conv* d, int algo, const void* x, const void* dy, void* dw,
                         void* workspace, size_t workspace_bytes, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    const float one = 1.f, zero = 0.f;
    return check(cudnnConvolutionBackwardFilter(ctx->dnn, &one, d->x, x, d->y, dy, d->conv,
                                                cudnnConvolutionBwdFilterAlgo_t(algo), workspace, workspace_bytes,
                                                &zero, d->w, dw),
                 "cudnnConvolutionBackwardFilter", err);
}

}  // namespace lf::cuda
