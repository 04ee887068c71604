// Element-wise kernels: grid-stride loops of 256 threads, launched on the context's stream.
#include "backend/dropout_mask.h"
#include "context.h"
#include "collective.h"
#include "kernels.h"
#include "launch.h"
#include "status.h"

namespace lf::cuda {

namespace {

__global__ void fill_kernel(float* dst, float value, size_t n) {
    LF_GRID_STRIDE(i, n) dst[i] = value;
}

__global__ void scale_kernel(float* x, float factor, size_t n) {
    LF_GRID_STRIDE(i, n) x[i] *= factor;
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

bool known(int kind) { return kind == LF_CUDA_RELU || kind == LF_CUDA_SIGMOID || kind == LF_CUDA_TANH; }

constexpr float kSqrt2Pi = 0.7978845608028654f;  // sqrt(2 / pi)

// oneDNN's eltwise formulas (the CPU backend's), forward and d/dx.
__device__ float act_value(const lf_cuda_act& a, float x) {
    switch (a.kind) {
    case LF_CUDA_LEAKY_RELU: return x > 0.f ? x : a.alpha * x;
    case LF_CUDA_ELU: return x > 0.f ? x : a.alpha * expm1f(x);
    case LF_CUDA_GELU: return 0.5f * x * (1.f + erff(x * 0.7071067811865475f));
    case LF_CUDA_GELU_TANH: return 0.5f * x * (1.f + tanhf(kSqrt2Pi * (x + 0.044715f * x * x * x)));
    case LF_CUDA_SWISH: return x / (1.f + expf(-a.alpha * x));
    case LF_CUDA_EXP: return expf(x);
    case LF_CUDA_CLIP: return x <= 0.f ? 0.f : x >= a.max_value ? a.max_value : x;
    default: return x >= a.max_value ? a.max_value : x >= a.threshold ? x : a.alpha * (x - a.threshold);
    }
}

__device__ float act_slope(const lf_cuda_act& a, float x) {
    switch (a.kind) {
    case LF_CUDA_LEAKY_RELU: return x > 0.f ? 1.f : a.alpha;
    case LF_CUDA_ELU: return x > 0.f ? 1.f : a.alpha * expf(x);
    case LF_CUDA_GELU:
        return 0.5f * (1.f + erff(x * 0.7071067811865475f)) + x * 0.3989422804014327f * expf(-0.5f * x * x);
    case LF_CUDA_GELU_TANH: {
        const float t = tanhf(kSqrt2Pi * (x + 0.044715f * x * x * x));
        return 0.5f * (1.f + t) + 0.5f * x * (1.f - t * t) * kSqrt2Pi * (1.f + 3.f * 0.044715f * x * x);
    }
    case LF_CUDA_SWISH: {
        const float s = 1.f / (1.f + expf(-a.alpha * x));
        return s + a.alpha * x * s * (1.f - s);
    }
    case LF_CUDA_EXP: return expf(x);
    case LF_CUDA_CLIP: return x > 0.f && x <= a.max_value ? 1.f : 0.f;
    default: return x >= a.max_value ? 0.f : x >= a.threshold ? 1.f : a.alpha;
    }
}

__global__ void act_forward_kernel(lf_cuda_act a, const float* x, float* y, size_t n) {
    LF_GRID_STRIDE(i, n) y[i] = act_value(a, x[i]);
}

__global__ void act_backward_kernel(lf_cuda_act a, const float* x, const float* dy, float* dx, size_t n) {
    LF_GRID_STRIDE(i, n) dx[i] = dy[i] * act_slope(a, x[i]);
}

bool known_act(int kind) { return kind >= LF_CUDA_LEAKY_RELU && kind <= LF_CUDA_KERAS_RELU; }

__global__ void transpose_kernel(const float* src, float* dst, int64_t rows, int64_t cols) {
    LF_GRID_STRIDE(i, size_t(rows) * size_t(cols)) {
        const size_t r = i / size_t(cols), c = i % size_t(cols);
        dst[c * size_t(rows) + r] = src[i];
    }
}

// One thread per padded element: zero outside, the input inside.
__global__ void pad2d_kernel(const float* x, float* y, int64_t n, int64_t h, int64_t w, int64_t c, int top, int left,
                             int64_t oh, int64_t ow) {
    LF_GRID_STRIDE(i, size_t(n * oh * ow * c)) {
        const int64_t ch = int64_t(i % size_t(c)), p = int64_t(i / size_t(c));
        const int64_t col = p % ow - left, row = (p / ow) % oh - top, img = p / (ow * oh);
        y[i] = row >= 0 && row < h && col >= 0 && col < w ? x[((img * h + row) * w + col) * c + ch] : 0.f;
    }
}

__global__ void crop2d_kernel(const float* y, float* x, int64_t n, int64_t h, int64_t w, int64_t c, int top, int left,
                              int64_t oh, int64_t ow) {
    LF_GRID_STRIDE(i, size_t(n * h * w * c)) {
        const int64_t ch = int64_t(i % size_t(c)), p = int64_t(i / size_t(c));
        const int64_t col = p % w, row = (p / w) % h, img = p / (w * h);
        x[i] = y[((img * oh + row + top) * ow + col + left) * c + ch];
    }
}

__global__ void multiply_kernel(float* dst, const float* src, size_t n, int64_t pixels, int64_t c, int broadcast) {
    LF_GRID_STRIDE(i, n) {
        const size_t j = broadcast ? (i / size_t(pixels * c)) * size_t(c) + i % size_t(c) : i;
        dst[i] *= src[j];
    }
}

// One thread per (sample, channel), in pixel order as the CPU loop sums.
__global__ void sum_pixels_kernel(const float* src, float* dst, int64_t batch, int64_t pixels, int64_t c) {
    LF_GRID_STRIDE(i, size_t(batch * c)) {
        const int64_t b = int64_t(i) / c, ch = int64_t(i) % c;
        float s = 0.f;
        for (int64_t p = 0; p < pixels; ++p) s += src[(b * pixels + p) * c + ch];
        dst[i] = s;
    }
}

__global__ void dropout_kernel(const float* x, float* y, float* mask, size_t n, uint64_t seed, const uint64_t* step,
                               uint64_t first, uint64_t threshold, float scale) {
    const uint64_t base = dropout::step_base(seed, *step);
    LF_GRID_STRIDE(i, n) {
        const float m = dropout::mask(base, first + i, threshold, scale);
        mask[i] = m;
        y[i] = x[i] * m;
    }
}

__global__ void count_kernel(uint64_t* counter) { ++*counter; }

}  // namespace

int fill(lf_cuda_context* ctx, float* dst, float value, size_t n, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    fill_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(dst, value, n);
    return launched(err);
}

int scale_on(cudaStream_t stream, float* x, float factor, size_t n, lf_cuda_error* err) {
    if (n == 0) return 0;
    scale_kernel<<<blocks_for(n), kThreads, 0, stream>>>(x, factor, n);
    return launched(err);
}

int scale(lf_cuda_context* ctx, float* x, float factor, size_t n, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    return scale_on(ctx->stream, x, factor, n, err);
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

int act_forward(lf_cuda_context* ctx, const lf_cuda_act* a, const float* x, float* y, size_t n, lf_cuda_error* err) {
    if (!known_act(a->kind)) return fail(err, int(cudaErrorInvalidValue), "act_forward", "unknown activation", "lf");
    if (int s = enter(ctx, err)) return s;
    act_forward_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(*a, x, y, n);
    return launched(err);
}

int act_backward(lf_cuda_context* ctx, const lf_cuda_act* a, const float* x, const float* dy, float* dx, size_t n,
                 lf_cuda_error* err) {
    if (!known_act(a->kind)) return fail(err, int(cudaErrorInvalidValue), "act_backward", "unknown activation", "lf");
    if (int s = enter(ctx, err)) return s;
    act_backward_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(*a, x, dy, dx, n);
    return launched(err);
}

int transpose(lf_cuda_context* ctx, const float* src, float* dst, int64_t rows, int64_t cols, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    transpose_kernel<<<blocks_for(size_t(rows * cols)), kThreads, 0, ctx->stream>>>(src, dst, rows, cols);
    return launched(err);
}

int pad2d(lf_cuda_context* ctx, const float* x, float* y, int64_t n, int64_t h, int64_t w, int64_t c, int top,
          int bottom, int left, int right, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    const int64_t oh = h + top + bottom, ow = w + left + right;
    pad2d_kernel<<<blocks_for(size_t(n * oh * ow * c)), kThreads, 0, ctx->stream>>>(x, y, n, h, w, c, top, left, oh, ow);
    return launched(err);
}

int crop2d(lf_cuda_context* ctx, const float* y, float* x, int64_t n, int64_t h, int64_t w, int64_t c, int top,
           int bottom, int left, int right, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    const int64_t oh = h + top + bottom, ow = w + left + right;
    crop2d_kernel<<<blocks_for(size_t(n * h * w * c)), kThreads, 0, ctx->stream>>>(y, x, n, h, w, c, top, left, oh, ow);
    return launched(err);
}

int multiply(lf_cuda_context* ctx, float* dst, const float* src, size_t n, int64_t pixels, int64_t c, int broadcast,
             lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    multiply_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(dst, src, n, pixels, c, broadcast);
    return launched(err);
}

int sum_pixels(lf_cuda_context* ctx, const float* src, float* dst, int64_t batch, int64_t pixels, int64_t c,
               lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    sum_pixels_kernel<<<blocks_for(size_t(batch * c)), kThreads, 0, ctx->stream>>>(src, dst, batch, pixels, c);
    return launched(err);
}

int dropout_forward(lf_cuda_context* ctx, const float* x, float* y, float* mask, size_t n, uint64_t seed,
                    const uint64_t* step, uint64_t first, uint64_t threshold, float scale, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    dropout_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(x, y, mask, n, seed, step, first, threshold, scale);
    return launched(err);
}

int count_step(lf_cuda_context* ctx, uint64_t* counter, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    count_kernel<<<1, 1, 0, ctx->stream>>>(counter);
    return launched(err);
}

}  // namespace lf::cuda
