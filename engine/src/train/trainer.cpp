#include "layerforge/train/trainer.h"

#include "layerforge/core/error.h"
#include "layerforge/train/data_fit.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/metrics.h"
#include "layerforge/train/optimizer.h"
#include "layerforge/train/schedule.h"
#include "train/configured.h"
#include "train/data_parallel.h"
#include "train/plan_cache.h"

namespace lf {

const char* to_string(EventKind k) {
    switch (k) {
    case EventKind::RunStarted: return "run_started";
    case EventKind::Step: return "step";
    case EventKind::EpochEnd: return "epoch_end";
    case EventKind::Paused: return "paused";
    case EventKind::Resumed: return "resumed";
    case EventKind::Finished: return "finished";
    case EventKind::Stopped: return "stopped";
    case EventKind::Failed: return "failed";
    }
    return "?";
}

Trainer::Trainer(Model& model, const TrainingConfig& config, const std::string& device)
    : model_(model), config_(config) {
    using train_detail::configured;
    model_.input_node();
    model_.output_node();
    train_detail::make_loss_and_metrics(config, loss_, metrics_);
    optimizer_ = configured("optimizer", [&] { return make_optimizer(config.optimizer.type, config.optimizer.params); });
    optimizer_->bind(model_.weights().size());  // steps cover the trainable prefix
    plans_ = std::make_unique<PlanCache>(model_, device, config, optimizer_.get());
    schedule_ = configured("schedule", [&] { return make_schedule(config.schedule.type, config.schedule.params); });
    make_callbacks();
    if (config.batch_size < 1) throw input_error("training.batch_size: must be at least 1");
    if (config.epochs < 0) throw input_error("training.epochs: must not be negative");
}

Trainer::~Trainer() = default;

void Trainer::set_communicator(Communicator* comm) {
    parallel_.reset();
    if (!comm) return;
    if (config_.batch_size < comm->size())
        throw input_error("training.batch_size: the global batch of " + std::to_string(config_.batch_size) +
                          " is smaller than the " + std::to_string(comm->size()) +
                          " processes that share it; use a batch of at least one sample per process");
    parallel_ = std::make_unique<DataParallel>(*comm, plans_->device(), metrics_);
}

void Trainer::make_callbacks() {
    using train_detail::configured;
    early_stopping_.reset();
    reduce_lr_.reset();
    for (const NamedConfig& c : config_.callbacks) {
        if (c.type == "EarlyStopping")
            early_stopping_ = configured("callbacks", [&] { return std::make_unique<EarlyStopping>(c.params); });
        else if (c.type == "ReduceLROnPlateau")
            reduce_lr_ = configured("callbacks", [&] { return std::make_unique<ReduceLROnPlateau>(c.params); });
        else
            throw input_error("training.callbacks: unknown callback '" + c.type +
                              "' (known: EarlyStopping, ReduceLROnPlateau)");
    }
}

void Trainer::check_source(const Shape& shape, std::size_t class_count, const char* what) const {
    require_source_fit(model_, shape, class_count, what);
}

void Trainer::check_dataset(const TensorDataset& d, const char* what) const { require_dataset_fit(model_, d, what); }

void Trainer::notify(TrainEvent e) {
    for (TrainObserver* o : observers_) o->on_event(e);
}

void Trainer::request_pause() { pause_ = true; }

void Trainer::request_resume() {
    {
        std::lock_guard lock(pause_mutex_);
        pause_ = false;
    }
    pause_cv_.notify_all();
}

void Trainer::request_stop() {
    stop_ = true;
    request_resume();
}

void Trainer::wait_while_paused(TrainEvent base) {
    if (!pause_) return;
    base.kind = EventKind::Paused;
    notify(base);
    {
        std::unique_lock lock(pause_mutex_);
        pause_cv_.wait(lock, [&] { return !pause_; });
    }
    base.kind = EventKind::Resumed;
    notify(base);
}

}  // namespace lf
