#pragma once
// fit / evaluate / predict over in-memory datasets, reporting progress to observers.
// Pause, resume and stop may be requested from any thread; they take effect between steps.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "layerforge/backend/plan.h"
#include "layerforge/core/run_status.h"
#include "layerforge/data/batch_source.h"
#include "layerforge/data/dataset.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"
#include "layerforge/train/train_state.h"

namespace lf {

class Loss;
class Metric;
class Optimizer;
class LrSchedule;
class EarlyStopping;
class ReduceLROnPlateau;
class PlanCache;
class Communicator;
class DataParallel;

enum class EventKind { RunStarted, Step, EpochEnd, Paused, Resumed, Finished, Stopped, Failed };
const char* to_string(EventKind k);

using Metrics = std::vector<std::pair<std::string, double>>;  // "loss", "accuracy", "val_loss", ...

struct TrainEvent {
    EventKind kind = EventKind::Step;
    std::int64_t epoch = 0, epochs = 0;  // 1-based epoch
    std::int64_t step = 0;               // optimizer steps so far
    std::int64_t steps_per_epoch = 0, total_steps = 0;
    double learning_rate = 0;
    Metrics metrics;                     // running means over the epoch so far (+ validation at epoch end)
    double images_per_second = 0, eta_seconds = 0, elapsed_seconds = 0;
    double data_wait_fraction = 0;       // share of the window spent waiting for data (> 0.1: data-bound)
    PipelineStats data;                  // the training source's queue depth and decode rate
    // The full-batch training plan's per-layer times and memory so far (Plan::profile), refreshed
    // at log points, epoch ends and the run's end; empty before the first log point.
    PlanProfile profile;
    // How that plan's passes ran last (Plan::execution): on a GPU whether they were replayed as
    // CUDA graphs or eager and why; "" on the CPU. Refreshed with the profile.
    std::string execution;
    // A data-parallel run: each rank's images per second at this log point, by rank (empty
    // otherwise); images_per_second is then the whole job's.
    std::vector<double> rank_images_per_second;
    std::string message;
};

class TrainObserver {
public:
    virtual ~TrainObserver() = default;
    virtual void on_event(const TrainEvent& e) = 0;  // called on the training thread
    // true: receive a Step event after every step (a run store), not only every log_every steps.
    virtual bool wants_every_step() const { return false; }
};

struct FitResult {
    RunStatus status = RunStatus::Finished;  // Finished, EarlyStopped, Stopped or Failed
    std::string message;
    std::int64_t epochs_run = 0, steps = 0;
    std::vector<Metrics> history;  // one entry per finished epoch
};

struct EvalResult {
    Metrics metrics;  // "loss" first, then the configured metrics
    std::int64_t samples = 0;
};

class Trainer {
public:
    // Builds loss, metrics, optimizer, schedule and callbacks and loads the model onto `device`;
    // throws lf::Error (Input) naming the training field that is wrong, or the unknown device.
    // Between calls the host model holds the current weights: fit, evaluate and predict send
    // them to the device first, and fit brings them back when it ends.
    Trainer(Model& model, const TrainingConfig& config, const std::string& device = "cpu");
    ~Trainer();

    void add_observer(TrainObserver* o) { observers_.push_back(o); }
    void set_log_every(std::int64_t steps) { log_every_ = steps > 0 ? steps : 1; }

    // Checkpoints are offered to the sink by the policy; nullptr turns them off.
    void set_checkpointing(const CheckpointPolicy& policy, CheckpointSink* sink) {
        checkpoint_policy_ = policy;
        checkpoint_sink_ = sink;
    }

    // Data parallelism: this trainer is one rank of `comm`'s world (nullptr, the default: a
    // single process). fit and evaluate then take this rank's rows of each global batch
    // (config batch_size is the global batch), average the gradients over the ranks, and report
    // the world's loss and metrics on every rank. Throws lf::Error (Input) when the batch has
    // fewer samples than there are ranks or the device cannot take part.
    void set_communicator(Communicator* comm);

    // With `resume`, the run continues from that state: the caller has already put the
    // checkpoint's weights into the model and its slots into optimizer().state(). Throws
    // lf::Error (Input) when the state does not fit this data (steps per epoch differ).
    FitResult fit(const TensorDataset& train, const TensorDataset* validation, const TrainState* resume = nullptr);
    // With the trainer's plans and metrics; to evaluate or predict without training, use
    // Inference (train/inference.h), which builds no optimizer.
    EvalResult evaluate(const TensorDataset& data);
    std::vector<float> predict(const TensorDataset& data);  // size() x output width
    // The same over batch sources (image pipelines); evaluate and predict read one epoch in order.
    FitResult fit(BatchSource& train, BatchSource* validation, const TrainState* resume = nullptr);
    EvalResult evaluate(BatchSource& data);
    std::vector<float> predict(BatchSource& data);

    void request_pause();
    void request_resume();
    void request_stop();

    Optimizer& optimizer() { return *optimizer_; }

private:
    friend class FitLoop;  // one fit's loop and state (train/fit_loop.h)

    void make_callbacks();  // fresh callback state, as Keras callbacks reset in on_train_begin
    void check_dataset(const TensorDataset& d, const char* what) const;
    void check_source(const Shape& shape, std::size_t classes, const char* what) const;
    void notify(TrainEvent e);  // not "emit": Qt code that includes this header defines emit as a macro
    void wait_while_paused(TrainEvent base);

    Model& model_;
    TrainingConfig config_;
    std::unique_ptr<Loss> loss_;
    std::vector<std::unique_ptr<Metric>> metrics_;
    std::unique_ptr<Optimizer> optimizer_;
    std::unique_ptr<LrSchedule> schedule_;
    std::unique_ptr<EarlyStopping> early_stopping_;
    std::unique_ptr<ReduceLROnPlateau> reduce_lr_;
    std::unique_ptr<PlanCache> plans_;  // training plans, and the inference plans of validation
    std::unique_ptr<DataParallel> parallel_;  // with set_communicator
    std::vector<TrainObserver*> observers_;
    std::int64_t log_every_ = 100;
    CheckpointPolicy checkpoint_policy_;
    CheckpointSink* checkpoint_sink_ = nullptr;
    std::atomic<bool> stop_{false}, pause_{false};
    std::mutex pause_mutex_;
    std::condition_variable pause_cv_;
};

}  // namespace lf
