// The optimizers' element-wise steps on the device: each loop is its CPU rule's, in the same
// order of float32 operations (train/sgd.cpp, adam.cpp, rmsprop.cpp), over the constants the
// rule computed for this step on the host (Adam's bias-corrected step size among them).
#include "context.h"
#include "launch.h"
#include "status.h"
#include "update_kernels.h"

namespace lf::cuda {

namespace {

// A step whose scaled gradients overflowed changes nothing (Keras' LossScaleOptimizer).
__device__ bool skipped(const lf_cuda_update* u) { return u->skip && *u->skip; }

__global__ void sgd_kernel(float* w, const float* g, size_t n, const lf_cuda_update* u) {
    if (skipped(u)) return;
    const float a = u->a, unscale = u->grad_scale;
    LF_GRID_STRIDE(i, n) w[i] -= a * (g[i] * unscale);
}

__global__ void momentum_kernel(float* w, const float* g, size_t n, const lf_cuda_update* u, int nesterov) {
    if (skipped(u)) return;
    float* v = u->state[0];
    const float a = u->a, mu = u->mu, unscale = u->grad_scale;
    LF_GRID_STRIDE(i, n) {
        const float gi = g[i] * unscale;
        v[i] = mu * v[i] - a * gi;
        w[i] += nesterov ? mu * v[i] - a * gi : v[i];
    }
}

__global__ void adam_kernel(float* w, const float* g, size_t n, const lf_cuda_update* u) {
    if (skipped(u)) return;
    float* m = u->state[0];
    float* v = u->state[1];
    const float a = u->a, decay = u->decay, b1 = u->b1, b2 = u->b2, eps = u->eps, unscale = u->grad_scale;
    LF_GRID_STRIDE(i, n) {
        const float gi = g[i] * unscale;
        w[i] -= w[i] * decay;
        m[i] += (gi - m[i]) * b1;
        v[i] += (gi * gi - v[i]) * b2;
        w[i] -= a * m[i] / (sqrtf(v[i]) + eps);
    }
}

__global__ void rmsprop_kernel(float* w, const float* g, size_t n, const lf_cuda_update* u) {
    if (skipped(u)) return;
    float* v = u->state[0];
    float* mom = u->state[1];
    const float a = u->a, rho = u->rho, mu = u->mu, eps = u->eps, unscale = u->grad_scale;
    LF_GRID_STRIDE(i, n) {
        const float gi = g[i] * unscale;
        v[i] = rho * v[i] + (1 - rho) * gi * gi;
        const float inc = a * gi / sqrtf(v[i] + eps);
        if (mom) {
            mom[i] = mu * mom[i] + inc;
            w[i] -= mom[i];
        } else {
            w[i] -= inc;
        }
    }
}

}  // namespace

int update(lf_cuda_context* ctx, const lf_cuda_update* u, const lf_cuda_update* device_u, float* w, const float* g,
           size_t n, lf_cuda_error* err) {
    const bool needs_state = u->rule != LF_CUDA_SGD;
    const bool needs_two = u->rule == LF_CUDA_ADAM;
    if ((needs_state && !u->state[0]) || (needs_two && !u->state[1]) || u->rule < LF_CUDA_SGD || u->rule > LF_CUDA_RMSPROP)
        return fail(err, int(cudaErrorInvalidValue), "update", "unknown rule or missing state array", "lf");
    if (!device_u) return fail(err, int(cudaErrorInvalidValue), "update", "no device copy of the step", "lf");
    if (int s = enter(ctx, err)) return s;
    const unsigned b = blocks_for(n);
    cudaStream_t st = ctx->stream;
    switch (u->rule) {
    case LF_CUDA_SGD: sgd_kernel<<<b, kThreads, 0, st>>>(w, g, n, device_u); break;
    case LF_CUDA_MOMENTUM:
    case LF_CUDA_NESTEROV: momentum_kernel<<<b, kThreads, 0, st>>>(w, g, n, device_u, u->rule == LF_CUDA_NESTEROV); break;
    case LF_CUDA_ADAM: adam_kernel<<<b, kThreads, 0, st>>>(w, g, n, device_u); break;
    default: rmsprop_kernel<<<b, kThreads, 0, st>>>(w, g, n, device_u);
    }
    return launched(err);
}

}  // namespace lf::cuda
