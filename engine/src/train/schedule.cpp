// Learning-rate schedules, evaluated at the 0-based optimizer step like Keras
// LearningRateSchedule(optimizer.iterations).
#include "layerforge/train/schedule.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "layerforge/core/error.h"
#include "train/param_reader.h"

namespace lf {

namespace {

using train_detail::ParamReader;
using train_detail::Range;

class Constant final : public LrSchedule {
public:
    double lr(double base, std::int64_t, std::int64_t) const override { return base; }
};

// keras ExponentialDecay: base * rate^(step / decay_steps), the exponent floored if staircase.
class ExponentialDecay final : public LrSchedule {
public:
    explicit ExponentialDecay(const ParamReader& r) {
        r.require("decay_steps");
        r.require("decay_rate");
        decay_steps_ = r.integer("decay_steps", 1, 1);
        decay_rate_ = r.real("decay_rate", 1.0, Range::Positive);
        staircase_ = r.flag("staircase", false);
    }
    double lr(double base, std::int64_t step, std::int64_t) const override {
        double p = static_cast<double>(step) / static_cast<double>(decay_steps_);
        if (staircase_) p = std::floor(p);
        return base * std::pow(decay_rate_, p);
    }

private:
    std::int64_t decay_steps_ = 1;
    double decay_rate_ = 1;
    bool staircase_ = false;
};

// Classic step decay: base * drop^floor(epoch / epochs_drop), epoch = step / steps_per_epoch.
class StepDecay final : public LrSchedule {
public:
    explicit StepDecay(const ParamReader& r) {
        drop_ = r.real("drop", 0.5, Range::Positive);
        epochs_drop_ = r.integer("epochs_drop", 10, 1);
    }
    double lr(double base, std::int64_t step, std::int64_t steps_per_epoch) const override {
        const std::int64_t epoch = step / std::max<std::int64_t>(1, steps_per_epoch);
        return base * std::pow(drop_, static_cast<double>(epoch / epochs_drop_));
    }

private:
    double drop_ = 0.5;
    std::int64_t epochs_drop_ = 10;
};

// keras CosineDecay (no warmup): base * ((1 - alpha) * 0.5 (1 + cos(pi * s / decay_steps)) + alpha),
// with s = min(step, decay_steps) so the rate stays at alpha * base afterwards.
class CosineDecay final : public LrSchedule {
public:
    explicit CosineDecay(const ParamReader& r) {
        r.require("decay_steps");
        decay_steps_ = r.integer("decay_steps", 1, 1);
        alpha_ = r.real("alpha", 0.0, Range::Closed01);
    }
    double lr(double base, std::int64_t step, std::int64_t) const override {
        const double s = static_cast<double>(std::min(step, decay_steps_)) / static_cast<double>(decay_steps_);
        const double cosine = 0.5 * (1 + std::cos(std::numbers::pi * s));
        return base * ((1 - alpha_) * cosine + alpha_);
    }

private:
    std::int64_t decay_steps_ = 1;
    double alpha_ = 0;
};

}  // namespace

std::unique_ptr<LrSchedule> make_schedule(const std::string& type, const Params& params) {
    if (type == "constant") {
        ParamReader(type, params, {});  // rejects any parameter
        return std::make_unique<Constant>();
    }
    if (type == "exponential_decay")
        return std::make_unique<ExponentialDecay>(ParamReader(type, params, {"decay_steps", "decay_rate", "staircase"}));
    if (type == "step_decay") return std::make_unique<StepDecay>(ParamReader(type, params, {"drop", "epochs_drop"}));
    if (type == "cosine_decay")
        return std::make_unique<CosineDecay>(ParamReader(type, params, {"decay_steps", "alpha"}));
    throw input_error("unknown schedule '" + type + "' (valid: constant, exponential_decay, step_decay, cosine_decay)");
}

}  // namespace lf
