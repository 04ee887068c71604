// The loops are kept apart with non-aliasing pointers so they vectorise (sqrt and div included:
// the engine builds with -fno-math-errno); on x86-64 they are also compiled for AVX2 and
// AVX-512 and the loader picks the widest the CPU has. This file is compiled without FMA
// contraction (engine/CMakeLists.txt): the same IEEE operations in the same order on every
// path, vector body and remainder alike, so results do not depend on how the range is cut.
#include "backend/host_update.h"

#include <cmath>

#include "core/vector_clones.h"

namespace lf {

namespace {

LF_VECTOR_CLONES void sgd_update(float* __restrict w, const float* __restrict g, std::size_t n, float a) {
    for (std::size_t i = 0; i < n; ++i) w[i] -= a * g[i];
}

// Keras SGD with momentum (v = mu v - lr g; w += v), or Nesterov (w += mu v - lr g).
LF_VECTOR_CLONES void momentum_update(float* __restrict w, float* __restrict v, const float* __restrict g,
                                      std::size_t n, float a, float mu, bool nesterov) {
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = mu * v[i] - a * g[i];
        w[i] += nesterov ? mu * v[i] - a * g[i] : v[i];
    }
}

// Keras Adam and AdamW: the weight decay first (w -= lr * wd * w, as Keras applies it), then
// the Adam step with the bias correction folded into a.
LF_VECTOR_CLONES void adam_update(float* __restrict w, float* __restrict m, float* __restrict v,
                                  const float* __restrict g, std::size_t n, float a, float decay, float b1,
                                  float b2, float eps) {
    for (std::size_t i = 0; i < n; ++i) {
        w[i] -= w[i] * decay;
        m[i] += (g[i] - m[i]) * b1;
        v[i] += (g[i] * g[i] - v[i]) * b2;
        w[i] -= a * m[i] / (std::sqrt(v[i]) + eps);
    }
}

// Keras 3 RMSprop: v = rho v + (1 - rho) g^2; inc = lr g / sqrt(v + eps); with momentum
// mom = mu mom + inc and w -= mom, else w -= inc. mom is null without momentum.
LF_VECTOR_CLONES void rmsprop_update(float* __restrict w, float* __restrict v, float* __restrict mom,
                                     const float* __restrict g, std::size_t n, float a, float rho, float mu,
                                     float eps) {
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = rho * v[i] + (1 - rho) * g[i] * g[i];
        const float inc = a * g[i] / std::sqrt(v[i] + eps);
        if (mom) {
            mom[i] = mu * mom[i] + inc;
            w[i] -= mom[i];
        } else {
            w[i] -= inc;
        }
    }
}

}  // namespace

void run_update_step(const UpdateStep& u, float* w, const float* g, std::size_t begin, std::size_t end) {
    const std::size_t n = end - begin;
    w += begin;
    g += begin;
    float* s0 = u.state[0] ? u.state[0] + begin : nullptr;
    float* s1 = u.state[1] ? u.state[1] + begin : nullptr;
    switch (u.rule) {
    case UpdateStep::Rule::Sgd: return sgd_update(w, g, n, u.a);
    case UpdateStep::Rule::Momentum:
    case UpdateStep::Rule::Nesterov: return momentum_update(w, s0, g, n, u.a, u.mu, u.rule == UpdateStep::Rule::Nesterov);
    case UpdateStep::Rule::Adam: return adam_update(w, s0, s1, g, n, u.a, u.decay, u.b1, u.b2, u.eps);
    case UpdateStep::Rule::RmsProp: return rmsprop_update(w, s0, s1, g, n, u.a, u.rho, u.mu, u.eps);
    }
}

}  // namespace lf
