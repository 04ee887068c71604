#include "layerforge/run/run_recorder.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "layerforge/store/checkpoint.h"
#include "layerforge/store/metric_rows.h"

namespace lf {

RunRecorder::RunRecorder(RunStore& store, std::int64_t run, const Model& model, Optimizer& optimizer,
                         RetentionPolicy policy)
    : store_(store), run_(run), model_(model), optimizer_(optimizer), policy_(std::move(policy)), writer_(store) {}

void RunRecorder::on_event(const TrainEvent& e) {
    if (e.kind != EventKind::Step && e.kind != EventKind::EpochEnd) return;
    for_each_metric_row(e, run_, wall_clock_seconds(), [this](MetricRow r) { writer_.push(std::move(r)); });
}

void RunRecorder::save(const TrainState& state, const Metrics& metrics) {
    writer_.flush();  // the curve up to the checkpoint is committed before the checkpoint
    nlohmann::json m = nlohmann::json::object();
    for (const auto& [k, v] : metrics)
        if (std::isfinite(v)) m[k] = v;
    const std::int64_t epoch = state.step_in_epoch > 0 ? state.epoch : state.epoch - 1;  // the last epoch touched
    const std::int64_t id = store_.save_checkpoint(run_, state.iterations, epoch, m.dump(),
                                                   encode_checkpoint(model_, optimizer_, state), policy_);
    if (on_saved)
        for (const CheckpointInfo& c : store_.checkpoints(run_))
            if (c.id == id) on_saved(c);
}

void RunRecorder::finish(RunStatus status) {
    writer_.flush();
    store_.set_status(run_, status);
}

}  // namespace lf
