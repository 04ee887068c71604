// Kernels over images and channels: per-channel reductions (bias gradients, batch
// normalization) and window pooling, all channels last as the engine stores them.
#include "context.h"
#include "launch.h"
#include "layer_kernels.h"
#include "status.h"

namespace lf::cuda {

namespace {

// Per-channel sums down the rows of rows x c in two passes. First, a grid of (channels / 32) x
// LF_CUDA_REDUCE_SPLIT blocks of 32 channels (one warp reads 32 neighbouring floats) by
// kRowLanes rows: block y sums the rows y kRowLanes + lane, stepping by kRowLanes x the split,
// then a tree over the lanes in shared memory leaves one partial per (split, channel). Second,
// one thread per channel adds the partials in order and finishes (mean, accumulate, ...).
// Deterministic: no atomics, the same order every run.
constexpr int kRowLanes = 32;
constexpr int kSplit = LF_CUDA_REDUCE_SPLIT;

enum Reduce { kSum, kMean, kVariance, kNormGrads };

template <class T>
__global__ void channel_partials_kernel(int mode, const T* a, const T* b, const float* mean, const float* var,
                                        float eps, float* partials, int64_t rows, int64_t c) {
    __shared__ float s0[kRowLanes][32], s1[kRowLanes][32];
    const int64_t ch = blockIdx.x * int64_t(32) + threadIdx.x;
    float acc0 = 0.f, acc1 = 0.f;
    if (ch < c) {
        const float m = mode == kSum || mode == kMean ? 0.f : mean[ch];
        const float inv = mode == kNormGrads ? 1.f / sqrtf(var[ch] + eps) : 0.f;
        for (int64_t r = blockIdx.y * int64_t(kRowLanes) + threadIdx.y; r < rows; r += int64_t(kRowLanes) * kSplit) {
            const float x = ld(a[r * c + ch]);
            switch (mode) {
            case kSum:
            case kMean: acc0 += x; break;
            case kVariance: acc0 += (x - m) * (x - m); break;
            default: {
                const float dy = ld(b[r * c + ch]);
                acc0 += dy * (x - m) * inv;
                acc1 += dy;
            }
            }
        }
    }
    s0[threadIdx.y][threadIdx.x] = acc0;
    s1[threadIdx.y][threadIdx.x] = acc1;
    __syncthreads();
    for (int half = kRowLanes / 2; half > 0; half /= 2) {
        if (threadIdx.y < half) {
            s0[threadIdx.y][threadIdx.x] += s0[threadIdx.y + half][threadIdx.x];
            s1[threadIdx.y][threadIdx.x] += s1[threadIdx.y + half][threadIdx.x];
        }
        __syncthreads();
    }
    if (threadIdx.y != 0 || ch >= c) return;
    partials[blockIdx.y * c + ch] = s0[0][threadIdx.x];
    partials[(kSplit + blockIdx.y) * c + ch] = s1[0][threadIdx.x];
}

__global__ void channel_finish_kernel(int mode, const float* partials, float* out0, float* out1, int64_t rows, int64_t c,
                                      int accumulate) {
    LF_GRID_STRIDE(i, size_t(c)) {
        float t0 = 0.f, t1 = 0.f;
        for (int y = 0; y < kSplit; ++y) {
            t0 += partials[y * c + int64_t(i)];
            t1 += partials[(kSplit + y) * c + int64_t(i)];
        }
        switch (mode) {
        case kSum: out0[i] = accumulate ? out0[i] + t0 : t0; break;
        case kMean:
        case kVariance: out0[i] = t0 / float(rows); break;
        default:
            out0[i] = t0;
            out1[i] = t1;
        }
    }
}

int reduce(lf_cuda_context* ctx, int dtype, int mode, const void* a, const void* b, const float* mean,
           const float* var, float eps, float* out0, float* out1, int64_t rows, int64_t c, int accumulate,
           float* partials, lf_cuda_error* err) {
    if (!partials) return fail(err, int(cudaErrorInvalidValue), "channel sums", "no scratch for the partial sums", "lf");
    if (int s = enter(ctx, err)) return s;
    const dim3 block(32, kRowLanes), grid(unsigned((c + 31) / 32), kSplit);
    LF_DISPATCH(dtype, T, "channel sums", err,
                channel_partials_kernel<<<grid, block, 0, ctx->stream>>>(
                    mode, static_cast<const T*>(a), static_cast<const T*>(b), mean, var, eps, partials, rows, c));
    if (int s = launched(err)) return s;
    channel_finish_kernel<<<blocks_for(size_t(c)), kThreads, 0, ctx->stream>>>(mode, partials, out0, out1, rows, c,
                                                                              accumulate);
    return launched(err);
}

// oneDNN's forms: y = gamma inv (x - mean) + beta; dx = gamma inv (dy - dbeta / M - xhat dgamma / M),
// or gamma inv dy with the statistics held constant (dgamma null).
template <class T>
__global__ void bn_forward_kernel(const T* x, const float* mean, const float* var, const float* gamma,
                                  const float* beta, float eps, T* y, int64_t rows, int64_t c) {
    LF_GRID_STRIDE(i, size_t(rows * c)) {
        const size_t ch = i % size_t(c);
        y[i] = st<T>(gamma[ch] * (1.f / sqrtf(var[ch] + eps)) * (ld(x[i]) - mean[ch]) + beta[ch]);
    }
}

template <class T>
__global__ void bn_backward_kernel(const T* x, const T* dy, const float* mean, const float* var,
                                   const float* gamma, float eps, const float* dgamma, const float* dbeta, T* dx,
                                   int64_t rows, int64_t c) {
    LF_GRID_STRIDE(i, size_t(rows * c)) {
        const size_t ch = i % size_t(c);
        const float inv = 1.f / sqrtf(var[ch] + eps);  // correctly rounded, as the CPU's
        float d = ld(dy[i]);
        if (dgamma) d -= (dbeta[ch] + (ld(x[i]) - mean[ch]) * inv * dgamma[ch]) / float(rows);
        dx[i] = st<T>(gamma[ch] * inv * d);
    }
}

__global__ void bn_moving_kernel(const float* mean, const float* var, float* mm, float* mv, float keep, float take,
                                 float bessel, int64_t c) {
    LF_GRID_STRIDE(i, size_t(c)) {
        mm[i] = mm[i] * keep + mean[i] * take;
        mv[i] = mv[i] * keep + var[i] * bessel * take;
    }
}

// Window of output (oy, ox) clipped to the image: rows [y0, y1), columns [x0, x1).
struct Clip {
    int64_t y0, y1, x0, x1;
};

__device__ Clip clip_window(const lf_cuda_pool_shape& p, int64_t oy, int64_t ox) {
    const int64_t y = oy * p.stride_h - p.pad_top, x = ox * p.stride_w - p.pad_left;
    return {max(y, int64_t(0)), min(y + p.kernel_h, p.h), max(x, int64_t(0)), min(x + p.kernel_w, p.w)};
}

__device__ float window_count(const lf_cuda_pool_shape& p, const Clip& w) {
    if (p.mode == LF_CUDA_POOL_AVG_INCLUDE_PAD) return float(p.kernel_h * p.kernel_w);
    return float((w.y1 - w.y0) * (w.x1 - w.x0));
}

// Max: the first largest value in window order (oneDNN's choice among ties), never padding.
template <class T>
__global__ void pool_forward_kernel(lf_cuda_pool_shape p, const T* x, T* y, int32_t* argmax) {
    LF_GRID_STRIDE(i, size_t(p.n * p.out_h * p.out_w * p.c)) {
        const int64_t ch = int64_t(i) % p.c, o = int64_t(i) / p.c;
        const int64_t ox = o % p.out_w, oy = (o / p.out_w) % p.out_h, img = o / (p.out_w * p.out_h);
        const Clip w = clip_window(p, oy, ox);
        const T* base = x + img * p.h * p.w * p.c + ch;
        float acc = p.mode == LF_CUDA_POOL_MAX ? -INFINITY : 0.f;
        int32_t best = int32_t(w.y0 * p.w + w.x0);
        for (int64_t r = w.y0; r < w.y1; ++r)
            for (int64_t q = w.x0; q < w.x1; ++q) {
                const float v = ld(base[(r * p.w + q) * p.c]);
                if (p.mode != LF_CUDA_POOL_MAX) acc += v;
                else if (v > acc) acc = v, best = int32_t(r * p.w + q);
            }
        y[i] = st<T>(p.mode == LF_CUDA_POOL_MAX ? acc : acc / window_count(p, w));
        if (argmax) argmax[i] = best;
    }
}

// One thread per input element, gathering from every window that covers it.
template <class T>
__global__ void pool_backward_kernel(lf_cuda_pool_shape p, const T* dy, const int32_t* argmax, T* dx) {
    LF_GRID_STRIDE(i, size_t(p.n * p.h * p.w * p.c)) {
        const int64_t ch = int64_t(i) % p.c, q = int64_t(i) / p.c;
        const int64_t ix = q % p.w, iy = (q / p.w) % p.h, img = q / (p.w * p.h);
        const int64_t ry = iy + p.pad_top, rx = ix + p.pad_left;
        const int64_t oy0 = ry < p.kernel_h ? 0 : (ry - p.kernel_h) / p.stride_h + 1;
        const int64_t ox0 = rx < p.kernel_w ? 0 : (rx - p.kernel_w) / p.stride_w + 1;
        const int64_t oy1 = min(ry / p.stride_h + 1, p.out_h), ox1 = min(rx / p.stride_w + 1, p.out_w);
        float g = 0.f;
        for (int64_t oy = oy0; oy < oy1; ++oy)
            for (int64_t ox = ox0; ox < ox1; ++ox) {
                const size_t o = size_t(((img * p.out_h + oy) * p.out_w + ox) * p.c + ch);
                if (p.mode == LF_CUDA_POOL_MAX) {
                    if (argmax[o] == int32_t(iy * p.w + ix)) g += ld(dy[o]);
                } else {
                    g += ld(dy[o]) / window_count(p, clip_window(p, oy, ox));
                }
            }
        dx[i] = st<T>(g);
    }
}

}  // namespace

int bias_grad(lf_cuda_context* ctx, int dtype, const void* dy, float* g, int64_t rows, int64_t cols, int accumulate,
              float* partials, lf_cuda_error* err) {
    return reduce(ctx, dtype, kSum, dy, nullptr, nullptr, nullptr, 0.f, g, nullptr, rows, cols, accumulate, partials,
                  err);
}

int bn_stats(lf_cuda_context* ctx, int dtype, const void* x, float* mean, float* var, int64_t rows, int64_t c,
             float* partials, lf_cuda_error* err) {
    if (int s = reduce(ctx, dtype, kMean, x, nullptr, nullptr, nullptr, 0.f, mean, nullptr, rows, c, 0, partials, err))
        return s;
    return reduce(ctx, dtype, kVariance, x, nullptr, mean, nullptr, 0.f, var, nullptr, rows, c, 0, partials, err);
}

int bn_forward(lf_cuda_context* ctx, int dtype, const void* x, const float* mean, const float* var, const float* gamma,
               const float* beta, float eps, void* y, int64_t rows, int64_t c, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    LF_DISPATCH(dtype, T, "bn_forward", err,
                bn_forward_kernel<<<blocks_for(size_t(rows * c)), kThreads, 0, ctx->stream>>>(
                    static_cast<const T*>(x), mean, var, gamma, beta, eps, static_cast<T*>(y), rows, c));
    return launched(err);
}

int bn_moving(lf_cuda_context* ctx, const float* mean, const float* var, float* moving_mean, float* moving_var,
              float momentum, float bessel, int64_t c, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    bn_moving_kernel<<<blocks_for(size_t(c)), kThreads, 0, ctx->stream>>>(mean, var, moving_mean, moving_var, momentum,
                                                                          1.f - momentum, bessel, c);
    return launched(err);
}

int bn_backward(lf_cuda_context* ctx, int dtype, const void* x, const void* dy, const float* mean, const float* var,
                const float* gamma, float eps, float* dgamma, float* dbeta, void* dx, int64_t rows, int64_t c,
                float* partials, lf_cuda_error* err) {
    if (dgamma)
        if (int s = reduce(ctx, dtype, kNormGrads, x, dy, mean, var, eps, dgamma, dbeta, rows, c, 0, partials, err))
            return s;
    if (!dx) return 0;
    if (int s = enter(ctx, err)) return s;
    LF_DISPATCH(dtype, T, "bn_backward", err,
                bn_backward_kernel<<<blocks_for(size_t(rows * c)), kThreads, 0, ctx->stream>>>(
                    static_cast<const T*>(x), static_cast<const T*>(dy), mean, var, gamma, eps, dgamma, dbeta,
                    static_cast<T*>(dx), rows, c));
    return launched(err);
}

int pool_forward(lf_cuda_context* ctx, const lf_cuda_pool_shape* p, const void* x, void* y, int32_t* argmax,
                 lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    const size_t n = size_t(p->n * p->out_h * p->out_w * p->c);
    LF_DISPATCH(p->dtype, T, "pool_forward", err,
                pool_forward_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(*p, static_cast<const T*>(x),
                                                                                static_cast<T*>(y), argmax));
    return launched(err);
}

int pool_backward(lf_cuda_context* ctx, const lf_cuda_pool_shape* p, const void* dy, const int32_t* argmax, void* dx,
                  lf_cuda_error* err) {
    if (p->mode == LF_CUDA_POOL_MAX && !argmax)
        return fail(err, int(cudaErrorInvalidValue), "pool_backward", "max pooling without its argmax", "lf");
    if (int s = enter(ctx, err)) return s;
    const size_t n = size_t(p->n * p->h * p->w * p->c);
    LF_DISPATCH(p->dtype, T, "pool_backward", err,
                pool_backward_kernel<<<blocks_for(n), kThreads, 0, ctx->stream>>>(*p, static_cast<const T*>(dy), argmax,
                                                                                 static_cast<T*>(dx)));
    return launched(err);
}

}  // namespace lf::cuda
