#pragma once
// The metric rows a training event records: a Step's running metrics in split "train", an
// EpochEnd's epoch means (and lr) in "epoch" and its "val_*" metrics in "val" without the prefix.
#include <chrono>
#include <cstdint>
#include <utility>

#include "layerforge/store/run_store.h"
#include "layerforge/train/trainer.h"

namespace lf {

// A metric row's wall_time: seconds since the Unix epoch.
inline double wall_clock_seconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

template <class Push>  // void(MetricRow)
void for_each_metric_row(const TrainEvent& e, std::int64_t run, double wall_time, Push&& push) {
    if (e.kind != EventKind::Step && e.kind != EventKind::EpochEnd) return;
    for (const auto& [name, value] : e.metrics) {
        MetricRow r{run, e.step, e.epoch, "train", name, value, wall_time};
        if (e.kind == EventKind::EpochEnd) {
            const bool val = name.rfind("val_", 0) == 0;
            r.split = val ? "val" : "epoch";
            if (val) r.name = name.substr(4);
        }
        push(std::move(r));
    }
}

}  // namespace lf
