#pragma once
// Shared by the benchmark programs: percentiles, per-epoch throughput from Trainer::fit's
// events, and option parsing helpers.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "layerforge/core/error.h"
#include "layerforge/data/dataset.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"
#include "layerforge/train/trainer.h"

namespace bench {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

inline double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    double pos = q * double(v.size() - 1);
    std::size_t i = std::size_t(pos);
    double f = pos - double(i);
    return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

struct Stats {
    std::vector<double> epoch_ips;  // images/s per epoch
    std::vector<double> step_ms;    // per full-size step
    double ips() const { return percentile(epoch_ips, 0.5); }
    double ips_min() const { return epoch_ips.empty() ? 0 : *std::min_element(epoch_ips.begin(), epoch_ips.end()); }
    double ips_max() const { return epoch_ips.empty() ? 0 : *std::max_element(epoch_ips.begin(), epoch_ips.end()); }
};

class StepRecorder : public lf::TrainObserver {
public:
    explicit StepRecorder(std::int64_t batch) : batch_(batch) {}
    void on_event(const lf::TrainEvent& e) override {
        if (e.kind == lf::EventKind::Step && e.images_per_second > 0)
            stats.step_ms.push_back(1000.0 * double(batch_) / e.images_per_second);
        if (e.kind == lf::EventKind::EpochEnd) {
            double dt = e.elapsed_seconds - last_elapsed_;
            last_elapsed_ = e.elapsed_seconds;
            stats.epoch_ips.push_back(double(samples) / dt);
        }
    }
    Stats stats;
    std::int64_t samples = 0;

private:
    std::int64_t batch_;
    double last_elapsed_ = 0;
};

inline Stats run_fit(const lf::Project& proj, const lf::TensorDataset& train, std::int64_t batch, std::int64_t epochs) {
    lf::Model model(proj.graph);
    model.init_weights(std::uint64_t(proj.training.seed));
    lf::TrainingConfig cfg = proj.training;
    cfg.batch_size = batch;
    cfg.epochs = epochs;
    cfg.callbacks.clear();
    lf::Trainer trainer(model, cfg);
    StepRecorder rec(batch);
    rec.samples = train.size();
    trainer.add_observer(&rec);
    trainer.set_log_every(1);
    lf::FitResult r = trainer.fit(train, nullptr);
    if (r.status != lf::RunStatus::Finished)
        throw lf::runtime_error(std::string("fit ended with ") + lf::to_string(r.status) + ": " + r.message);
    return rec.stats;
}

// "a,b,c" -> {"a", "b", "c"}: the option lists of the benchmarks.
inline std::vector<std::string> split_list(const std::string& list) {
    std::vector<std::string> out;
    for (std::size_t start = 0; start <= list.size();) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        out.push_back(list.substr(start, comma - start));
        start = comma + 1;
    }
    return out;
}

// Walks the command line: handle(option, value) sees each option and calls value() for its
// argument (a missing one prints the usage and exits 2); it returns false for an unknown
// option. Returns the exit code to stop with (0 for --help), or -1 to go on.
template <class Handle>
int parse_options(int argc, char** argv, void (*usage)(), Handle handle) {
    for (int i = 1; i < argc; ++i) {
        const std::string option = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) {
                usage();
                std::exit(2);
            }
            return argv[++i];
        };
        if (!handle(option, value)) {
            usage();
            return option == "--help" || option == "-h" ? 0 : 2;
        }
    }
    return -1;
}

inline std::vector<std::int64_t> parse_list(const char* s);

// The options every benchmark takes: --batch, --epochs, --threads, --json, --project.
struct CommonOptions {
    std::vector<std::int64_t> batches{50, 128};
    std::int64_t epochs;
    int threads = 0;  // 0: OMP_NUM_THREADS or all cores
    bool json = false;
    std::string project;

    // True when `a` was one of them (its value taken through value()).
    template <class Value>
    bool handle(const std::string& a, Value& value) {
        if (a == "--batch") batches = parse_list(value());
        else if (a == "--epochs") epochs = std::stoll(value());
        else if (a == "--threads") threads = std::atoi(value());
        else if (a == "--json") json = true;
        else if (a == "--project") project = value();
        else return false;
        return true;
    }
};

inline std::vector<std::int64_t> parse_list(const char* s) {
    std::vector<std::int64_t> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) out.push_back(std::stoll(item));
    return out;
}

}  // namespace bench
