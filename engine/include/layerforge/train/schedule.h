#pragma once
// Learning-rate schedules and the epoch-end callbacks that steer training.
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "layerforge/core/params.h"

namespace lf {

class LrSchedule {
public:
    virtual ~LrSchedule() = default;
    // Learning rate for the given 0-based optimizer step, from the base rate.
    virtual double lr(double base_lr, std::int64_t step, std::int64_t steps_per_epoch) const = 0;
};

// Types: "constant"; "exponential_decay"(decay_steps, decay_rate, staircase=false) as
// keras ExponentialDecay; "step_decay"(drop=0.5, epochs_drop=10): base * drop^floor(epoch/epochs_drop);
// "cosine_decay"(decay_steps, alpha=0) as keras CosineDecay. Throws lf::Error (Input).
std::unique_ptr<LrSchedule> make_schedule(const std::string& type, const Params& params);

// Keras EarlyStopping(monitor="val_loss", min_delta=0, patience=0, mode="auto",
// restore_best_weights=false). mode auto: "max" when the monitor names an accuracy.
class EarlyStopping {
public:
    explicit EarlyStopping(const Params& params);  // throws lf::Error (Input)
    // Feed the monitored value at the end of each epoch; returns true when training should stop.
    bool on_epoch_end(std::int64_t epoch, double value);
    bool last_improved() const { return last_improved_; }  // the last value is the new best
    double best() const { return best_; }
    std::int64_t best_epoch() const { return best_epoch_; }
    const std::string& monitor() const { return monitor_; }
    bool restore_best_weights() const { return restore_best_; }

    // The bookkeeping between epochs, saved in checkpoints so a resumed run stops where the
    // uninterrupted one would.
    struct State {
        double best;
        std::int64_t best_epoch, wait;
        bool last_improved;
    };
    State state() const { return {best_, best_epoch_, wait_, last_improved_}; }
    void set_state(const State& s);

private:
    std::string monitor_ = "val_loss";
    double min_delta_ = 0;
    std::int64_t patience_ = 0;
    bool maximize_ = false, restore_best_ = false, last_improved_ = false;
    double best_ = std::numeric_limits<double>::quiet_NaN();
    std::int64_t best_epoch_ = -1, wait_ = 0;
};

// Keras ReduceLROnPlateau(monitor="val_loss", factor=0.1, patience=10, min_delta=1e-4,
// cooldown=0, min_lr=0, mode="auto").
class ReduceLROnPlateau {
public:
    explicit ReduceLROnPlateau(const Params& params);  // throws lf::Error (Input)
    // Returns the learning-rate multiplier to use from now on (starts at 1).
    double on_epoch_end(double value, double current_lr);
    double scale() const { return scale_; }
    const std::string& monitor() const { return monitor_; }

    struct State {
        double best, scale;
        std::int64_t wait, cooldown_left;
    };
    State state() const { return {best_, scale_, wait_, cooldown_left_}; }
    void set_state(const State& s);

private:
    std::string monitor_ = "val_loss";
    double factor_ = 0.1, min_delta_ = 1e-4, min_lr_ = 0;
    std::int64_t patience_ = 10, cooldown_ = 0, wait_ = 0, cooldown_left_ = 0;
    bool maximize_ = false;
    double best_ = std::numeric_limits<double>::quiet_NaN();
    double scale_ = 1.0;
};

}  // namespace lf
