#include "progress.h"

#include <cmath>

#include "layerforge/train/event_text.h"

namespace lf::cli {

Json metrics_json(const Metrics& m) {
    Json j = Json::object();
    for (const auto& [k, v] : m) j[k] = std::isfinite(v) ? Json(v) : Json(nullptr);
    return j;
}

void ProgressPrinter::on_event(const TrainEvent& e) {
    if (std::string text = event_text(e); !text.empty()) out_.line(text);
    Json j = {{"event", to_string(e.kind)}, {"epoch", e.epoch}, {"epochs", e.epochs}, {"step", e.step},
              {"steps_per_epoch", e.steps_per_epoch}, {"total_steps", e.total_steps}};
    if (e.kind == EventKind::Step) {
        j["metrics"] = metrics_json(e.metrics);
        j["data_wait_fraction"] = e.data_wait_fraction;
        if (e.data.workers > 0)
            j["data"] = {{"queue_depth", e.data.queue_depth}, {"queue_capacity", e.data.queue_capacity},
                         {"images_per_second", e.data.images_per_second}, {"workers", e.data.workers},
                         {"from_cache", e.data.from_cache}, {"failed", e.data.failed}};
        j["learning_rate"] = e.learning_rate;
        j["images_per_second"] = e.images_per_second;
        if (!e.rank_images_per_second.empty()) j["rank_images_per_second"] = e.rank_images_per_second;
        j["eta_seconds"] = e.eta_seconds;
    } else if (e.kind == EventKind::EpochEnd) {
        j["metrics"] = metrics_json(e.metrics);
    }
    j["elapsed_seconds"] = e.elapsed_seconds;
    if (!e.message.empty()) j["message"] = e.message;
    out_.object(j);
}

}  // namespace lf::cli
