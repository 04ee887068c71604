// Element-wise kernels: grid-stride loops of 256 threads, launched on the context's stream.
// One .cu file, so nvcc (the slowest step of the build) runs once per architecture.
#include "context.h"
#include "kernels.h"
#include "status.h"

namespace lf::cuda {

namespace {

constexpr int kThreads = 256;

// Enough blocks to fill the device a few times over; the loops cover the rest.
unsigned blocks_for(size_t n) {
    const size_t b = (n + kThreads - 1) / kThreads;
    return unsigned(b < 65535 ? (b ? b : 1) : 65535);
}

__global__ void fill_kernel(float* dst, float value, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        dst[i] = value;
}

__global__ void add_kernel(float* dst, const float* src, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        dst[i] += src[i];
}

__global__ void add_bias_kernel(float* y, const float* bias, int64_t rows, int64_t cols) {
    const size_t n = size_t(rows) * size_t(cols);
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        y[i] += bias[i % size_t(cols)];
}

// One thread per column, summing down the rows: the batch is small beside the columns.
__global__ void bias_grad_kernel(const float* dy, float* g, int64_t rows, int64_t cols, int accumulate) {
    for (int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; c < cols; c += int64_t(gridDim.x) * blockDim.x) {
        float s = 0.f;
        for (int64_t r = 0; r < rows; ++r) s += dy[r * cols + c];
        g[c] = accumulate ? g[c] + s : s;
    }
}

__device__ float activate(int kind, float x) {
    switch (kind) {
    case LF_CUDA_RELU: return x > 0.f ? x : 0.f;
    case LF_CUDA_SIGMOID: return 1.f / (1.f + expf(-x));
    default: return tanhf(x);
    }
}

// The derivative from the output y = f(x).
__device__ float derivative(int kind, float y) {
    switch (kind) {
    case LF_CUDA_RELU: return y > 0.f ? 1.f : 0.f;
    case LF_CUDA_SIGMOID: return y * (1.f - y);
    default: return 1.f - y * y;
    }
}

__global__ void activation_forward_kernel(int kind, const float* x, float* y, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        y[i] = activate(kind, x[i]);
}

__global__ void activation_backward_kernel(int kind, const float* y, const float* dy, float* dx, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        dx[i] = dy[i] * derivative(kind, y[i]);
}

int launched(lf_cuda_error* err) { return check(cudaGetLastError(), "kernel launch", err); }

bool known(int kind) { return kind == LF_CUDA_RELU || kind == LF_CUDA_SIGMOID || kind == LF_CUDA_TANH; }

}  // namespace

int fill(lf_cuda_context* ctx, float* dst, float value, size_t n, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    fill_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(dst, value, n);
    return launched(err);
}

int add(lf_cuda_context* ctx, float* dst, const float* src, size_t n, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    add_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(dst, src, n);
    return launched(err);
}

int add_bias(lf_cuda_context* ctx, float* y, const float* bias, int64_t rows, int64_t cols, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    add_bias_kernel<<<blocks_for(size_t(rows) * size_t(cols)), kThreads, 0, ctx->stream>>>(y, bias, rows, cols);
    return launched(err);
}

int bias_grad(lf_cuda_context* ctx, const float* dy, float* g, int64_t rows, int64_t cols, int accumulate,
              lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    bias_grad_kernel<<<blocks_for(size_t(cols)), kThreads, 0, ctx->stream>>>(dy, g, rows, cols, accumulate);
    return launched(err);
}

int activation_forward(lf_cuda_context* ctx, int kind, const float* x, float* y, size_t n, lf_cuda_error* err) {
    if (!known(kind)) return fail(err, int(cudaErrorInvalidValue), "activation_forward", "unknown activation", "lf");
    if (int s = enter(ctx, err)) return s;
    activation_forward_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(kind, x, y, n);
    return launched(err);
}

int activation_backward(lf_cuda_context* ctx, int kind, const float* y, const float* dy, float* dx, size_t n,
                        lf_cuda_error* err) {
    if (!known(kind)) return fail(err, int(cudaErrorInvalidValue), "activation_backward", "unknown activation", "lf");
    if (int s = enter(ctx, err)) return s;
    activation_backward_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(kind, y, dy, dx, n);
    return launched(err);
}

}  // namespace lf::cuda
