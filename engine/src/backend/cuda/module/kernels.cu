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

template <class T>
__global__ void add_kernel(T* dst, const T* src, size_t n) {
    LF_GRID_STRIDE(i, n) dst[i] = st<T>(ld(dst[i]) + ld(src[i]));
}

template <class T>
__global__ void add_bias_kernel(T* y, const float* bias, int64_t rows, int64_t cols) {
    LF_GRID_STRIDE(i, size_t(rows) * size_t(cols)) y[i] = st<T>(ld(y[i]) + bias[i % size_t(cols)]);
}

template <class From, class To>
__global__ void cast_kernel(const From* src, To* dst, size_t n) {
    LF_GRID_STRIDE(i, n) dst[i] = st<To>(ld(src[i]));
}

// Non-finite: every exponent bit set, in float32's bits.
__global__ void check_finite_kernel(const float* g, size_t n, int32_t* found) {
    LF_GRID_STRIDE(i, n)
    if ((__float_as_uint(g[i]) & 0x7f800000u) == 0x7f800000u) *found = 1;
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

template <class T>
__global__ void activation_forward_kernel(int kind, const T* x, T* y, size_t n) {
    LF_GRID_STRIDE(i, n) y[i] = st<T>(activate(kind, ld(x[i])));
}

template <class T>
__global__ void activation_backward_kernel(int kind, const T* y, const T* dy, T* dx, size_t n) {
    LF_GRID_STRIDE(i, n) dx[i] = st<T>(ld(dy[i]) * derivative(kind, ld(y[i])));
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
    case LF_CUDA_HARD_SIGMOID: return fminf(fmaxf(x / 6.f + 0.5f, 0.f), 1.f);
    case LF_CUDA_HARD_SWISH: return x * fminf(fmaxf(x + 3.f, 0.f), 6.f) / 6.f;
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
    case LF_CUDA_HARD_SIGMOID: return x > -3.f && x <= 3.f ? 1.f / 6.f : 0.f;
    case LF_CUDA_HARD_SWISH: return x >= 3.f ? 1.f : x > -3.f ? (2.f * x + 3.f) / 6.f : 0.f;
    default: return x >= a.max_value ? 0.f : x >= a.threshold ? 1.f : a.alpha;
    }
}

template <class T>
__global__ void act_forward_kernel(lf_cuda_act a, const T* x, T* y, size_t n) {
    LF_GRID_STRIDE(i, n) y[i] = st<T>(act_value(a, ld(x[i])));
}

template <class T>
__global__ void act_backward_kernel(lf_cuda_act a, const T* x, const T* dy, T* dx, size_t n) {
    LF_GRID_STRIDE(i, n) dx[i] = st<T>(ld(dy[i]) * act_slope(a, ld(x[i])));
}

bool known_act(int kind) { return kind >= LF_CUDA_LEAKY_RELU && kind <= LF_CUDA_HARD_SWISH; }

template <class From, class To>
__global__ void transpose_kernel(const From* src, To* dst, int64_t rows, int64_t cols) {
    LF_GRID_STRIDE(i, size_t(rows) * size_t(cols)) {
        const size_t r = i / size_t(cols), c = i % size_t(cols);
        dst[c * size_t(rows) + r] = st<To>(ld(src[i]));
    }
}

// One thread per padded element: zero outside, the input inside.
template <class T>
__global__ void pad2d_kernel(const T* x, T* y, int64_t n, int64_t h, int64_t w, int64_t c, int top, int left,
                             int64_t oh, int64_t ow) {
    LF_GRID_STRIDE(i, size_t(n * oh * ow * c)) {
        const int64_t ch = int64_t(i % size_t(c)), p = int64_t(i / size_t(c));
        const int64_t col = p % ow - left, row = (p / ow) % oh - top, img = p / (ow * oh);
        y[i] = row >= 0 && row < h && col >= 0 && col < w ? x[((img * h + row) * w + col) * c + ch] : st<T>(0.f);
    }
}

template <class T>
__global__ void crop2d_kernel(const T* y, T* x, int64_t n, int64_t h, int64_t w, int64_t c, int top, int left,
                              int64_t oh, int64_t ow) {
    LF_GRID_STRIDE(i, size_t(n * h * w * c)) {
        const int64_t ch = int64_t(i % size_t(c)), p = int64_t(i / size_t(c));
        const int64_t col = p % w, row = (p / w) % h, img = p / (w * h);
        x[i] = y[((img * oh + row + top) * ow + col + left) * c + ch];
    }
}

template <class T>
__global__ void multiply_kernel(T* dst, const T* src, size_t n, int64_t pixels, int64_t c, int broadcast) {
    LF_GRID_STRIDE(i, n) {
        const size_t j = broadcast ? (i / size_t(pixels * c)) * size_t(c) + i % size_t(c) : i;
        dst[i] = st<T>(ld(dst[i]) * ld(src[j]));
    }
}

// One thread per (sample, channel), in pixel order as the CPU loop sums.
template <class T>
__global__ void sum_pixels_kernel(const T* src, T* dst, int64_t batch, int64_t pixels, int64_t c) {
    LF_GRID_STRIDE(i, size_t(batch * c)) {
        const int64_t b = int64_t(i) / c, ch = int64_t(i) % c;
        float s = 0.f;
        for (int64_t p = 0; p < pixels; ++p) s += ld(src[(b * pixels + p) * c + ch]);
        dst[i] = st<T>(s);
    }
}

template <class T>
__global__ void dropout_kernel(const T* x, T* y, T* mask, size_t n, uint64_t seed, const uint64_t* step,
                               uint64_t first, uint64_t threshold, float scale) {
    const uint64_t base = dropout::step_base(seed, *step);
    LF_GRID_STRIDE(i, n) {
        const float m = dropout::mask(base, first + i, threshold, scale);
        mask[i] = st<T>(m);
        y[i] = st<T>(ld(x[i]) * m);
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

int add(lf_cuda_context* ctx, int dtype, void* dst, const void* src, size_t n, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    LF_DISPATCH(dtype, T, "add", err,
                add_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(static_cast<T*>(dst), static_cast<const T*>(src), n));
    return launched(err);
}

int add_bias(lf_cuda_context* ctx, int dtype, void* y, const float* bias, int64_t rows, int64_t cols,
             lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    LF_DISPATCH(dtype, T, "add_bias", err,
                add_bias_kernel<<<blocks_for(size_t(rows) * size_t(cols)), kThreads, 0, ctx->stream>>>(
                    static_cast<T*>(y), bias, rows, cols));
    return launched(err);
}

int cast(lf_cuda_context* ctx, int src_dtype, const void* src, int dst_dtype, void* dst, size_t n, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    if (n == 0) return 0;
    LF_DISPATCH(src_dtype, From, "cast", err,
                LF_DISPATCH(dst_dtype, To, "cast", err,
                            cast_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(static_cast<const From*>(src),
                                                                                   static_cast<To*>(dst), n)));
    return launched(err);
}

int check_finite(lf_cuda_context* ctx, const float* g, size_t n, int32_t* found, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    if (n == 0) return 0;
    check_finite_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(g, n, found);
    return launched(err);
}

int activation_forward(lf_cuda_context* ctx, int dtype, int kind, const void* x, void* y, size_t n,
                       lf_cuda_error* err) {
    if (!known(kind)) return fail(err, int(cudaErrorInvalidValue), "activation_forward", "unknown activation", "lf");
    if (int s = enter(ctx, err)) return s;
    LF_DISPATCH(dtype, T, "activation_forward", err,
                activation_forward_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(
                    kind, static_cast<const T*>(x), static_cast<T*>(y), n));
    return launched(err);
}

int activation_backward(lf_cuda_context* ctx, int dtype, int kind, const void* y, const void* dy, void* dx, size_t n,
                        lf_cuda_error* err) {
    if (!known(kind)) return fail(err, int(cudaErrorInvalidValue), "activation_backward", "unknown activation", "lf");
    if (int s = enter(ctx, err)) return s;
    LF_DISPATCH(dtype, T, "activation_backward", err,
                activation_backward_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(
                    kind, static_cast<const T*>(y), static_cast<const T*>(dy), static_cast<T*>(dx), n));
    return launched(err);
}

int act_forward(lf_cuda_context* ctx, int dtype, const lf_cuda_act* a, const void* x, void* y, size_t n,
                lf_cuda_error* err) {
    if (!known_act(a->kind)) return fail(err, int(cudaErrorInvalidValue), "act_forward", "unknown activation", "lf");
    if (int s = enter(ctx, err)) return s;
    LF_DISPATCH(dtype, T, "act_forward", err,
                act_forward_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(*a, static_cast<const T*>(x),
                                                                               static_cast<T*>(y), n));
    return launched(err);
}

int act_backward(lf_cuda_context* ctx, int dtype, const lf_cuda_act* a, const void* x, const void* dy, void* dx,
                 size_t n, lf_cuda_error* err) {
    if (!known_act(a->kind)) return fail(err, int(cudaErrorInvalidValue), "act_backward", "unknown activation", "lf");
    if (int s = enter(ctx, err)) return s;
    LF_DISPATCH(dtype, T, "act_backward", err,
                act_backward_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(
                    *a, static_cast<const T*>(x), static_cast<const T*>(dy), static_cast<T*>(dx), n));
    return launched(err);
}

int transpose(lf_cuda_context* ctx, int src_dtype, const void* src, int dst_dtype, void* dst, int64_t rows,
              int64_t cols, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    const size_t n = size_t(rows * cols);
    LF_DISPATCH(src_dtype, From, "transpose", err,
                LF_DISPATCH(dst_dtype, To, "transpose", err,
                            transpose_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(
                                static_cast<const From*>(src), static_cast<To*>(dst), rows, cols)));
    return launched(err);
}

int pad2d(lf_cuda_context* ctx, int dtype, const void* x, void* y, int64_t n, int64_t h, int64_t w, int64_t c, int top,
          int bottom, int left, int right, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    const int64_t oh = h + top + bottom, ow = w + left + right;
    LF_DISPATCH(dtype, T, "pad2d", err,
                pad2d_kernel<<<blocks_for(size_t(n * oh * ow * c)), kThreads, 0, ctx->stream>>>(
                    static_cast<const T*>(x), static_cast<T*>(y), n, h, w, c, top, left, oh, ow));
    return launched(err);
}

int crop2d(lf_cuda_context* ctx, int dtype, const void* y, void* x, int64_t n, int64_t h, int64_t w, int64_t c, int top,
           int bottom, int left, int right, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    const int64_t oh = h + top + bottom, ow = w + left + right;
    LF_DISPATCH(dtype, T, "crop2d", err,
                crop2d_kernel<<<blocks_for(size_t(n * h * w * c)), kThreads, 0, ctx->stream>>>(
                    static_cast<const T*>(y), static_cast<T*>(x), n, h, w, c, top, left, oh, ow));
    return launched(err);
}

int multiply(lf_cuda_context* ctx, int dtype, void* dst, const void* src, size_t n, int64_t pixels, int64_t c,
             int broadcast, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    LF_DISPATCH(dtype, T, "multiply", err,
                multiply_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(
                    static_cast<T*>(dst), static_cast<const T*>(src), n, pixels, c, broadcast));
    return launched(err);
}

int sum_pixels(lf_cuda_context* ctx, int dtype, const void* src, void* dst, int64_t batch, int64_t pixels, int64_t c,
               lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    LF_DISPATCH(dtype, T, "sum_pixels", err,
                sum_pixels_kernel<<<blocks_for(size_t(batch * c)), kThreads, 0, ctx->stream>>>(
                    static_cast<const T*>(src), static_cast<T*>(dst), batch, pixels, c));
    return launched(err);
}

int dropout_forward(lf_cuda_context* ctx, int dtype, const void* x, void* y, void* mask, size_t n, uint64_t seed,
                    const uint64_t* step, uint64_t first, uint64_t threshold, float scale, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    LF_DISPATCH(dtype, T, "dropout_forward", err,
                dropout_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(
                    static_cast<const T*>(x), static_cast<T*>(y), static_cast<T*>(mask), n, seed, step, first,
                    threshold, scale));
    return launched(err);
}

int count_step(lf_cuda_context* ctx, uint64_t* counter, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    count_kernel<<<1, 1, 0, ctx->stream>>>(counter);
    return launched(err);
}

}  // namespace lf::cuda
