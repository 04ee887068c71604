// Keras SGD: plain, with momentum (v = mu v - lr g; w += v), or Nesterov (w += mu v - lr g).
#include "core/slices.h"
#include "train/optimizer_impl.h"

namespace lf::train_detail {

namespace {

LF_VECTOR_CLONES void sgd_update(float* __restrict w, const float* __restrict g, std::size_t n, float a) {
    for (std::size_t i = 0; i < n; ++i) w[i] -= a * g[i];
}

LF_VECTOR_CLONES void momentum_update(float* __restrict w, float* __restrict v, const float* __restrict g,
                                      std::size_t n, float a, float mu, bool nesterov) {
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = mu * v[i] - a * g[i];
        w[i] += nesterov ? mu * v[i] - a * g[i] : v[i];
    }
}

class Sgd final : public BufferedOptimizer {
public:
    explicit Sgd(const Params& params) {
        ParamReader r("SGD", params, {"learning_rate", "momentum", "nesterov"});
        learning_rate_ = r.real("learning_rate", 0.01, Range::Positive);
        momentum_ = r.real("momentum", 0.0, Range::ClosedOpen01);
        nesterov_ = r.flag("nesterov", false);
        // Keras only creates the velocity when momentum is used.
        if (momentum_ > 0) velocity_ = add_buffer("momentum");
    }

    std::string name() const override { return "SGD"; }

    void step(float* w, const float* g, std::size_t n, double lr) override {
        const UpdateStep u = *take_step(n, lr);
        float* v = u.state[0];
        core_detail::for_each_slice(n, [&](std::size_t b, std::size_t e) {
            if (v) momentum_update(w + b, v + b, g + b, e - b, u.a, u.mu, u.rule == UpdateStep::Rule::Nesterov);
            else sgd_update(w + b, g + b, e - b, u.a);
        });
    }

    std::optional<UpdateStep> take_step(std::size_t n, double lr) override {
        check_bound(n);
        UpdateStep u;
        u.rule = momentum_ > 0 ? (nesterov_ ? UpdateStep::Rule::Nesterov : UpdateStep::Rule::Momentum) : UpdateStep::Rule::Sgd;
        u.a = static_cast<float>(lr);
        u.mu = static_cast<float>(momentum_);
        if (momentum_ > 0) u.state[0] = buffer(velocity_);
        ++iterations_;
        return u;
    }

private:
    double momentum_ = 0;
    bool nesterov_ = false;
    std::size_t velocity_ = 0;
};

}  // namespace

std::unique_ptr<Optimizer> make_sgd(const Params& params) { return std::make_unique<Sgd>(params); }

}  // namespace lf::train_detail
