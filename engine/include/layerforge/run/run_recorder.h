#pragma once
// Connects a Trainer to a RunStore: as an observer it records every step's running metrics
// and every epoch's metrics (through a MetricWriter, off the training thread); as the
// trainer's checkpoint sink it commits the metrics so far and then the checkpoint, with the
// retention policy applied in the same transaction.
#include <cstdint>
#include <functional>

#include "layerforge/store/metric_writer.h"
#include "layerforge/store/run_store.h"
#include "layerforge/train/trainer.h"

namespace lf {

class RunRecorder : public TrainObserver, public CheckpointSink {
public:
    RunRecorder(RunStore& store, std::int64_t run, const Model& model, Optimizer& optimizer, RetentionPolicy policy);

    bool wants_every_step() const override { return true; }
    void on_event(const TrainEvent& e) override;
    void save(const TrainState& state, const Metrics& metrics) override;
    // Commits the remaining metrics and records the run's final status.
    void finish(RunStatus status);

    std::function<void(const CheckpointInfo&)> on_saved;  // after each committed checkpoint

private:
    RunStore& store_;
    std::int64_t run_;
    const Model& model_;
    Optimizer& optimizer_;
    RetentionPolicy policy_;
    MetricWriter writer_;
};

}  // namespace lf
