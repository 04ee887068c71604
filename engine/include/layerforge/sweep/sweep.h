#pragma once
// Hyperparameter sweeps: `layerforge-cli sweep PROJECT --grid learning_rate=1e-3,3e-4
// batch_size=32,64`, or `--random N` over ranges (learning_rate=log:1e-4..1e-2). A trial is the
// project with some settings replaced; sweep_runner.h trains each as a normal run.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "layerforge/project/project.h"

namespace lf {

// One swept setting: a list of values, or (random sweeps only) a range.
struct SweepParam {
    enum class Kind { List, Log, Linear, Integer };
    // learning_rate, batch_size, epochs, seed, optimizer, precision, optimizer.NAME (an optimizer
    // parameter: momentum, beta_1, ...) or LAYER.PARAM (a layer's parameter: dense1.units).
    std::string name;
    Kind kind = Kind::List;
    std::vector<nlohmann::json> values;  // List: numbers or text, as written
    double low = 0, high = 0;            // the ranges, both ends included
};

// "learning_rate=1e-3,3e-4", "learning_rate=log:1e-4..1e-2", "dropout.rate=lin:0.1..0.5",
// "dense1.units=int:32..256", "optimizer=Adam,SGD". Throws lf::Error (Input) naming the
// parameter: no '=', an empty list or range, low above high, a log range not above zero.
SweepParam parse_sweep_param(const std::string& text);

using TrialSettings = nlohmann::ordered_json;  // {"learning_rate": 0.001, "batch_size": 32}

// Every combination, the first parameter varying slowest. Throws lf::Error (Input) for a range
// (a grid takes lists) or a repeated parameter.
std::vector<TrialSettings> grid_trials(const std::vector<SweepParam>& params);
// `count` trials drawn with `seed`: log ranges uniformly in log space, linear ones uniformly,
// integer ranges uniformly over their integers, lists uniformly over their values.
std::vector<TrialSettings> random_trials(const std::vector<SweepParam>& params, std::int64_t count, std::uint64_t seed);

// The project with the trial's settings in place. Throws lf::Error (Input) naming the parameter
// when the project has no such setting (no layer of that name, a layer without that parameter,
// an unknown optimizer) or a value does not fit it (kind, range, choices).
Project with_trial_settings(Project p, const TrialSettings& t);

// Checks every trial against the project before any trains, so a typo ends the sweep at once.
void check_trials(const Project& p, const std::vector<TrialSettings>& trials);

// Median stopping (Google Vizier; Optuna's MedianPruner): after an epoch past the warm-up, a
// trial stops when its best objective so far is worse than the median of the earlier trials'
// best-so-far at the same epoch, once at least `min_trials` earlier trials reached that epoch.
struct MedianStop {
    std::int64_t warmup_epochs = 1;
    std::int64_t min_trials = 2;
};
// `curve` and each of `earlier`: the objective after each epoch (index 0: epoch 1).
bool median_says_stop(const std::vector<std::vector<double>>& earlier, const std::vector<double>& curve, bool maximize,
                      const MedianStop& rule);

}  // namespace lf
