#include "layerforge/train/event_text.h"

#include <cmath>
#include <cstdio>

namespace lf {

namespace {

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

// " (ranks 5012 + 4987)": each rank's share of a data-parallel job's rate.
std::string ranks_text(const std::vector<double>& rates) {
    if (rates.empty()) return "";
    std::string s = " (ranks ";
    for (std::size_t r = 0; r < rates.size(); ++r) s += (r ? " + " : "") + fixed(rates[r], 0);
    return s + ")";
}

}  // namespace

std::string duration_text(double seconds) {
    long s = std::lround(seconds);
    char buf[32];
    if (s >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

std::string metrics_text(const Metrics& m) {
    std::string s;
    for (const auto& [k, v] : m) {
        if (k == "lr") continue;
        s += (s.empty() ? "" : "  ") + k + " " + fixed(v, 4);
    }
    return s;
}

std::string event_text(const TrainEvent& e) {
    switch (e.kind) {
    case EventKind::RunStarted:
        return "training: " + std::to_string(e.epochs) + " epochs x " + std::to_string(e.steps_per_epoch) + " steps";
    case EventKind::Step: {
        std::int64_t in_epoch = e.step - (e.epoch - 1) * e.steps_per_epoch;
        return "epoch " + std::to_string(e.epoch) + "/" + std::to_string(e.epochs) + "  step " +
               std::to_string(in_epoch) + "/" + std::to_string(e.steps_per_epoch) + "  " + metrics_text(e.metrics) +
               "  " + fixed(e.images_per_second, 0) + " img/s" + ranks_text(e.rank_images_per_second) + "  ETA " +
               duration_text(e.eta_seconds) +
               (e.data_wait_fraction > 0.1
                    ? "  data-bound (" + fixed(100 * e.data_wait_fraction, 0) + "% waiting for images)"
                    : "");
    }
    case EventKind::EpochEnd:
        return "epoch " + std::to_string(e.epoch) + "/" + std::to_string(e.epochs) + " done  " +
               metrics_text(e.metrics) + "  (" + duration_text(e.elapsed_seconds) + " elapsed)";
    case EventKind::Failed:
        return "training failed: " + e.message;
    case EventKind::Paused:
    case EventKind::Resumed:
    case EventKind::Finished:
    case EventKind::Stopped:
        break;
    }
    return e.message;
}

}  // namespace lf
