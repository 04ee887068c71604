// Keras Adam and AdamW. AdamW first decays the weights (w -= lr * wd * w, Keras applies
// weight decay before the gradient update), then takes the same Adam step.
#include <cmath>

#include "train/optimizer_impl.h"

namespace lf::train_detail {

namespace {

class Adam final : public BufferedOptimizer {
public:
    Adam(const std::string& type, const Params& params) : name_(type) {
        const bool adamw = type == "AdamW";
        ParamReader r(type, params,
                      adamw ? std::initializer_list<const char*>{"learning_rate", "weight_decay", "beta_1", "beta_2", "epsilon"}
                            : std::initializer_list<const char*>{"learning_rate", "beta_1", "beta_2", "epsilon"});
        learning_rate_ = r.real("learning_rate", 0.001, Range::Positive);
        weight_decay_ = adamw ? r.real("weight_decay", 0.004, Range::NonNegative) : 0.0;
        beta_1_ = r.real("beta_1", 0.9, Range::Open01);
        beta_2_ = r.real("beta_2", 0.999, Range::Open01);
        epsilon_ = r.real("epsilon", 1e-7, Range::Positive);
        m_ = add_buffer("m");
        v_ = add_buffer("v");
    }

    std::string name() const override { return name_; }

    std::optional<UpdateStep> take_step(std::size_t n, double lr) override {
        check_bound(n);
        // Bias correction folded into the step size, as Keras does.
        const double t = static_cast<double>(iterations_ + 1);
        const double alpha = lr * std::sqrt(1 - std::pow(beta_2_, t)) / (1 - std::pow(beta_1_, t));
        UpdateStep u;
        u.rule = UpdateStep::Rule::Adam;
        u.a = static_cast<float>(alpha);
        u.decay = static_cast<float>(lr * weight_decay_);
        u.b1 = static_cast<float>(1 - beta_1_);
        u.b2 = static_cast<float>(1 - beta_2_);
        u.eps = static_cast<float>(epsilon_);
        u.state = {buffer(m_), buffer(v_)};
        ++iterations_;
        return u;
    }

private:
    std::string name_;
    double weight_decay_ = 0, beta_1_ = 0.9, beta_2_ = 0.999, epsilon_ = 1e-7;
    std::size_t m_ = 0, v_ = 0;
};

}  // namespace

std::unique_ptr<Optimizer> make_adam(const std::string& type, const Params& params) {
    return std::make_unique<Adam>(type, params);
}

}  // namespace lf::train_detail
