// Keras 3 RMSprop: v = rho v + (1 - rho) g^2; inc = lr g / sqrt(v + eps); with momentum
// mom = mu mom + inc and w -= mom, else w -= inc. Note: Keras 3 adds eps under the square
// root (keras/src/optimizers/rmsprop.py), unlike Adam which adds it after.
#include <cmath>

#include "train/optimizer_impl.h"

namespace lf::train_detail {

namespace {

class RmsProp final : public BufferedOptimizer {
public:
    explicit RmsProp(const Params& params) {
        ParamReader r("RMSprop", params, {"learning_rate", "rho", "momentum", "epsilon"});
        learning_rate_ = r.real("learning_rate", 0.001, Range::Positive);
        rho_ = r.real("rho", 0.9, Range::ClosedOpen01);
        momentum_ = r.real("momentum", 0.0, Range::ClosedOpen01);
        epsilon_ = r.real("epsilon", 1e-7, Range::Positive);
        v_ = add_buffer("v");
        if (momentum_ > 0) mom_ = add_buffer("momentum");  // Keras creates it only when used
    }

    std::string name() const override { return "RMSprop"; }

    std::optional<UpdateStep> take_step(std::size_t n, double lr) override {
        check_bound(n);
        UpdateStep u;
        u.rule = UpdateStep::Rule::RmsProp;
        u.a = static_cast<float>(lr);
        u.rho = static_cast<float>(rho_);
        u.mu = static_cast<float>(momentum_);
        u.eps = static_cast<float>(epsilon_);
        u.state = {buffer(v_), momentum_ > 0 ? buffer(mom_) : nullptr};
        ++iterations_;
        return u;
    }

private:
    double rho_ = 0.9, momentum_ = 0, epsilon_ = 1e-7;
    std::size_t v_ = 0, mom_ = 0;
};

}  // namespace

std::unique_ptr<Optimizer> make_rmsprop(const Params& params) { return std::make_unique<RmsProp>(params); }

}  // namespace lf::train_detail
