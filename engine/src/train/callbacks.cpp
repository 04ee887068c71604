// EarlyStopping and ReduceLROnPlateau with the bookkeeping of the Keras callbacks.
// A NaN value never counts as an improvement; the first finite value always does.
#include <algorithm>
#include <cmath>

#include "layerforge/train/schedule.h"
#include "train/param_reader.h"

namespace lf {

namespace {

using train_detail::ParamReader;
using train_detail::Range;

// mode="auto" as Keras ReduceLROnPlateau decides it: maximise monitors that name an
// accuracy ("val_accuracy", "top3_accuracy"), minimise everything else (losses).
bool maximize_for(const ParamReader& r, const std::string& monitor) {
    const std::string mode = r.text("mode", "auto", {"auto", "min", "max"});
    return mode == "max" || (mode == "auto" && monitor.find("acc") != std::string::npos);
}

// value beats best by more than min_delta in the monitored direction (best NaN: no best yet).
bool improves(double value, double best, double min_delta, bool maximize) {
    if (std::isnan(value)) return false;
    if (std::isnan(best)) return true;
    return maximize ? value - min_delta > best : value + min_delta < best;
}

}  // namespace

EarlyStopping::EarlyStopping(const Params& params) {
    ParamReader r("EarlyStopping", params, {"monitor", "min_delta", "patience", "mode", "restore_best_weights"});
    monitor_ = r.text("monitor", monitor_);
    min_delta_ = r.real("min_delta", 0.0, Range::NonNegative);
    patience_ = r.integer("patience", 0, 0);
    maximize_ = maximize_for(r, monitor_);
    restore_best_ = r.flag("restore_best_weights", false);
}

// Keras order: count the epoch, reset on improvement, stop once wait reaches patience
// (never at epoch 0).
bool EarlyStopping::on_epoch_end(std::int64_t epoch, double value) {
    ++wait_;
    last_improved_ = improves(value, best_, min_delta_, maximize_);
    if (last_improved_) {
        best_ = value;
        best_epoch_ = epoch;
        wait_ = 0;
        return false;
    }
    return wait_ >= patience_ && epoch > 0;
}

void EarlyStopping::set_state(const State& s) {
    best_ = s.best;
    best_epoch_ = s.best_epoch;
    wait_ = s.wait;
    last_improved_ = s.last_improved;
}

ReduceLROnPlateau::ReduceLROnPlateau(const Params& params) {
    ParamReader r("ReduceLROnPlateau", params,
                  {"monitor", "factor", "patience", "min_delta", "cooldown", "min_lr", "mode"});
    monitor_ = r.text("monitor", monitor_);
    factor_ = r.real("factor", 0.1, Range::Open01);  // Keras rejects factor >= 1
    patience_ = r.integer("patience", 10, 0);
    min_delta_ = r.real("min_delta", 1e-4, Range::NonNegative);
    cooldown_ = r.integer("cooldown", 0, 0);
    min_lr_ = r.real("min_lr", 0.0, Range::NonNegative);
    maximize_ = maximize_for(r, monitor_);
}

// scale() multiplies whatever rate the schedule gives, so a reduction composes with decay:
// at the moment of a reduction the effective rate becomes max(current_lr * factor, min_lr).
// Afterwards the schedule may take it below min_lr; min_lr only bounds the reductions.
double ReduceLROnPlateau::on_epoch_end(double value, double current_lr) {
    if (cooldown_left_ > 0) {
        --cooldown_left_;
        wait_ = 0;
    }
    if (improves(value, best_, min_delta_, maximize_)) {
        best_ = value;
        wait_ = 0;
    } else if (cooldown_left_ == 0 && ++wait_ >= patience_) {
        // Keras compares against min_lr in float32, so a rate already at min_lr stays put.
        if (static_cast<float>(current_lr) > static_cast<float>(min_lr_) && current_lr > 0) {
            const double new_lr = std::max(current_lr * factor_, min_lr_);
            scale_ *= new_lr / current_lr;
            cooldown_left_ = cooldown_;
            wait_ = 0;
        }
    }
    return scale_;
}

void ReduceLROnPlateau::set_state(const State& s) {
    best_ = s.best;
    scale_ = s.scale;
    wait_ = s.wait;
    cooldown_left_ = s.cooldown_left;
}

}  // namespace lf
