#pragma once
// Live TensorBoard logging of a training run (train --tensorboard DIR): a TrainObserver that
// hands every step's running metrics and learning rate, and every epoch's training and
// validation metrics, to a MetricWriter (the run store's batching, off the training thread),
// whose thread writes them as whole records to RUN/train and RUN/validation and flushes the
// files after each batch (at least every epoch).
//
// Logging never fails the training: when the folder cannot be created or a write fails, the
// logger reports once through `warn` (on the thread that trains) and logs nothing more.
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "layerforge/store/metric_writer.h"
#include "layerforge/tensorboard/run_log_writer.h"
#include "layerforge/train/trainer.h"

namespace lf::tensorboard {

class TensorBoardLogger : public TrainObserver {
public:
    using Warn = std::function<void(const std::string&)>;
    // `run_folder`: LOGDIR/run_folder_name(...). `resumed_at`: the checkpoint step a resumed run
    // continues after (RunLogWriter).
    TensorBoardLogger(const std::string& run_folder, std::int64_t run_id, std::optional<std::int64_t> resumed_at,
                      Warn warn);
    ~TensorBoardLogger() override;

    bool wants_every_step() const override { return true; }
    void on_event(const TrainEvent& e) override;
    // Writes what is queued; reports a failure not reported yet. Called on the training thread.
    void finish();
    const std::string& folder() const { return log_.folder(); }

private:
    void write(const std::vector<MetricRow>& rows);  // on the writer's thread
    void report();

    RunLogWriter log_;
    std::int64_t run_;
    Warn warn_;
    std::atomic<bool> failed_{false};
    bool reported_ = false;
    std::mutex failure_mutex_;
    std::string failure_;
    MetricWriter writer_;  // last: its thread ends before the members it writes through
};

}  // namespace lf::tensorboard
