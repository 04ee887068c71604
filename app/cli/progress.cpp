#include "progress.h"

#include <cmath>
#include <cstdio>

namespace lf::cli {

namespace {

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string duration(double seconds) {
    long s = std::lround(seconds);
    char buf[32];
    if (s >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

}  // namespace

Json metrics_json(const Metrics& m) {
    Json j = Json::object();
    for (const auto& [k, v] : m) j[k] = std::isfinite(v) ? Json(v) : Json(nullptr);
    return j;
}

std::string metrics_text(const Metrics& m) {
    std::string s;
    for (const auto& [k, v] : m) {
        if (k == "lr") continue;
        s += (s.empty() ? "" : "  ") + k + " " + fixed(v, 4);
    }
    return s;
}

void ProgressPrinter::on_event(const TrainEvent& e) {
    Json j = {{"event", to_string(e.kind)}, {"epoch", e.epoch}, {"epochs", e.epochs}, {"step", e.step},
              {"steps_per_epoch", e.steps_per_epoch}, {"total_steps", e.total_steps}};
    switch (e.kind) {
    case EventKind::RunStarted:
        out_.line("training: " + std::to_string(e.epochs) + " epochs x " + std::to_string(e.steps_per_epoch) + " steps");
        break;
    case EventKind::Step: {
        std::int64_t in_epoch = e.step - (e.epoch - 1) * e.steps_per_epoch;
        out_.line("epoch " + std::to_string(e.epoch) + "/" + std::to_string(e.epochs) + "  step " +
                  std::to_string(in_epoch) + "/" + std::to_string(e.steps_per_epoch) + "  " + metrics_text(e.metrics) +
                  "  " + fixed(e.images_per_second, 0) + " img/s  ETA " + duration(e.eta_seconds) +
                  (e.data_wait_fraction > 0.1 ? "  data-bound (" + fixed(100 * e.data_wait_fraction, 0) +
                                                    "% waiting for images)"
                                              : ""));
        j["metrics"] = metrics_json(e.metrics);
        j["data_wait_fraction"] = e.data_wait_fraction;
        if (e.data.workers > 0)
            j["data"] = {{"queue_depth", e.data.queue_depth}, {"queue_capacity", e.data.queue_capacity},
                         {"images_per_second", e.data.images_per_second}, {"workers", e.data.workers},
                         {"from_cache", e.data.from_cache}, {"failed", e.data.failed}};
        j["learning_rate"] = e.learning_rate;
        j["images_per_second"] = e.images_per_second;
        j["eta_seconds"] = e.eta_seconds;
        break;
    }
    case EventKind::EpochEnd:
        out_.line("epoch " + std::to_string(e.epoch) + "/" + std::to_string(e.epochs) + " done  " +
                  metrics_text(e.metrics) + "  (" + duration(e.elapsed_seconds) + " elapsed)");
        j["metrics"] = metrics_json(e.metrics);
        break;
    case EventKind::Paused:
    case EventKind::Resumed:
    case EventKind::Finished:
    case EventKind::Stopped:
        if (!e.message.empty()) out_.line(e.message);
        break;
    case EventKind::Failed:
        out_.line("training failed: " + e.message);
        break;
    }
    j["elapsed_seconds"] = e.elapsed_seconds;
    if (!e.message.empty()) j["message"] = e.message;
    out_.object(j);
}

}  // namespace lf::cli
