#include "context.h"

#include "status.h"

namespace lf::cuda {

int enter(lf_cuda_context* ctx, lf_cuda_error* err) { return check(cudaSetDevice(ctx->device), "cudaSetDevice", err); }

lf_cuda_context* context_create(int device, lf_cuda_error* err) {
    auto* ctx = new lf_cuda_context;
    ctx->device = device;
    int s = enter(ctx, err);
    if (!s) s = check(cudaStreamCreateWithFlags(&ctx->stream, cudaStreamNonBlocking), "cudaStreamCreate", err);
    if (!s) s = check(cudaStreamCreateWithFlags(&ctx->copy_stream, cudaStreamNonBlocking), "cudaStreamCreate", err);
    if (!s) s = check(cublasCreate(&ctx->blas), "cublasCreate", err);
    if (!s) s = check(cublasSetStream(ctx->blas, ctx->stream), "cublasSetStream", err);
    // Full float32: the cross-backend tests compare with the CPU, and TF32 is a precision policy.
    if (!s) s = check(cublasSetMathMode(ctx->blas, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode", err);
    if (!s) s = check(cudnnCreate(&ctx->dnn), "cudnnCreate", err);
    if (!s) s = check(cudnnSetStream(ctx->dnn, ctx->stream), "cudnnSetStream", err);
    if (s) {
        context_destroy(ctx);
        return nullptr;
    }
    return ctx;
}

void context_destroy(lf_cuda_context* ctx) {
    if (!ctx) return;
    cudaSetDevice(ctx->device);
    if (ctx->dnn) cudnnDestroy(ctx->dnn);
    if (ctx->blas) cublasDestroy(ctx->blas);
    if (ctx->copy_stream) cudaStreamDestroy(ctx->copy_stream);
    if (ctx->stream) cudaStreamDestroy(ctx->stream);
    delete ctx;
}

int synchronize(lf_cuda_context* ctx, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    return check(cudaStreamSynchronize(ctx->stream), "cudaStreamSynchronize", err);
}

int copy_to_device(lf_cuda_context* ctx, void* dst, const void* src, size_t bytes, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    return check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, ctx->stream), "cudaMemcpyAsync", err);
}

int copy_on_device(lf_cuda_context* ctx, void* dst, const void* src, size_t bytes, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    return check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, ctx->stream), "cudaMemcpyAsync", err);
}

int copy_2d(lf_cuda_context* ctx, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t rows,
            lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    return check(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, rows, cudaMemcpyDeviceToDevice, ctx->stream),
                 "cudaMemcpy2DAsync", err);
}

// Waits: the caller reads the host array as soon as this returns.
int copy_to_host(lf_cuda_context* ctx, void* dst, const void* src, size_t bytes, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    if (int s = check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, ctx->stream), "cudaMemcpyAsync", err))
        return s;
    return check(cudaStreamSynchronize(ctx->stream), "cudaStreamSynchronize", err);
}

}  // namespace lf::cuda
