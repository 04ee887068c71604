// Keras SGD: plain, with momentum (v = mu v - lr g; w += v), or Nesterov (w += mu v - lr g).
#include "train/optimizer_impl.h"

namespace lf::train_detail {

namespace {

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
