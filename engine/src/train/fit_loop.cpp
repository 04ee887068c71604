// The training loop. Per step it takes one batch from the source, copies it into the plan, runs
// forward and the loss, then backward with the weights' update (one unit the device may
// replay as a captured graph). Between steps it offers checkpoints (a
// TrainState) to the sink, and a resumed fit starts from such a state: same permutations,
// dropout masks, running means, rates and callbacks.
#include "train/fit_loop.h"

#include <cmath>

#include "layerforge/core/error.h"
#include "layerforge/backend/backend.h"
#include "layerforge/train/metrics.h"
#include "layerforge/train/optimizer.h"
#include "layerforge/train/schedule.h"
#include "train/batch_runs.h"
#include "train/data_parallel.h"
#include "train/plan_cache.h"

namespace lf {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double lookup(const Metrics& m, const std::string& name) {
    for (const auto& [k, v] : m)
        if (k == name) return v;
    throw input_error("callback monitors '" + name + "', which this run does not report");
}

}  // namespace

FitLoop::FitLoop(Trainer& trainer, BatchSource& train, BatchSource* validation, const TrainState* resume)
    : t_(trainer), train_(train), validation_(validation), parallel_(trainer.parallel_.get()),
      reported_(parallel_ ? parallel_->world_metrics() : trainer.metrics_), n_(train.size()),
      bs_(std::min(train.batch_size(), n_)), steps_per_epoch_(train.steps_per_epoch()), epochs_(trainer.config_.epochs) {
    if (trainer.config_.precision == Precision::MixedFloat16) {
        if (parallel_)
            throw input_error("mixed_float16 trains in one process for now: its loss scaling is not shared between "
                              "data-parallel ranks; use mixed_bfloat16 or float32 with several processes");
        loss_scale_.emplace();
    }
    if (parallel_) {
        const Communicator& c = parallel_->comm();
        if (bs_ < c.size())
            throw input_error("the training data has " + std::to_string(n_) + " samples, fewer than the " +
                              std::to_string(c.size()) + " processes that would share each batch");
        train_.set_shard({c.rank(), c.size()});  // the sizes above stay the global ones
        parallel_->broadcast_weights();          // every rank starts from rank 0's
    }
    for (std::int64_t global : {bs_, n_ % bs_}) {  // the big allocations before the first step
        if (local_rows(global) == 0) continue;
        PlanSlot& slot = training_plan(global);
        if (parallel_) parallel_->attach(*slot.plan);
    }
    t_.plans_->device().push_weights();  // the host model's: initialised, restored or resumed
    running_.emplace_back("loss", 0.0);
    for (const auto& m : t_.metrics_) running_.emplace_back(m->name(), 0.0);
    if (resume) this->resume(*resume);
    done_before_ = (first_epoch_ - 1) * steps_per_epoch_ + first_step_;
}

void FitLoop::resume(const TrainState& s) {
    if (s.steps_per_epoch != steps_per_epoch_)
        throw input_error("the checkpoint was taken with " + std::to_string(s.steps_per_epoch) +
                          " steps per epoch but this run has " + std::to_string(steps_per_epoch_) +
                          "; resume with the same data size and batch size");
    train_.set_shuffle_state(s.shuffle_rng);
    t_.optimizer_->set_iterations(s.iterations);
    if (s.step_in_epoch > 0) {  // mid-epoch: the running metrics continue
        if (s.metric_states.size() != t_.metrics_.size())
            throw input_error("the checkpoint has " + std::to_string(s.metric_states.size()) +
                              " metric states but the run reports " + std::to_string(t_.metrics_.size()) +
                              " metrics; resume with the metrics it was trained with");
        for (std::size_t i = 0; i < t_.metrics_.size(); ++i) t_.metrics_[i]->set_state(s.metric_states[i].second);
        if (parallel_ && !parallel_->keeps_resumed_state())  // the world's sums count it once
            for (auto& m : t_.metrics_) m->reset();
    }
    if (t_.early_stopping_ && s.early_stopping) t_.early_stopping_->set_state(*s.early_stopping);
    if (t_.reduce_lr_ && s.reduce_lr) t_.reduce_lr_->set_state(*s.reduce_lr);
    seek_dropout(s);
    lr_scale_ = s.lr_scale;
    if (loss_scale_ && s.loss_scale) loss_scale_.emplace(*s.loss_scale);
    best_weights_ = s.best_weights;
    first_epoch_ = s.epoch;
    first_step_ = s.step_in_epoch;
    loss_sum_ = s.loss_sum;
    seen_ = s.seen;
    ev_.learning_rate = s.learning_rate;
    ev_.step = s.iterations;
    offered_at_ = s.iterations;  // that checkpoint exists already
}

FitResult FitLoop::run() {
    start();
    for (epoch_ = first_epoch_; epoch_ <= epochs_; ++epoch_) {
        start_epoch();
        Flow f = Flow::Next;
        while (f == Flow::Next) f = step();
        if (f == Flow::Ended || end_epoch() == Flow::Ended) return result_;
    }
    finish(RunStatus::Finished, "", EventKind::Finished);
    return result_;
}

void FitLoop::start() {
    ev_.epochs = epochs_;
    ev_.steps_per_epoch = steps_per_epoch_;
    ev_.total_steps = steps_per_epoch_ * epochs_;
    ev_.kind = EventKind::RunStarted;
    t_.notify(ev_);
    run_start_ = Clock::now();
    for (TrainObserver* o : t_.observers_) every_step_ = every_step_ || o->wants_every_step();
    epoch_rng_ = train_.shuffle_state();
    at_end_ = snapshot(first_epoch_, first_step_, epoch_rng_, loss_sum_, seen_);
}

void FitLoop::start_epoch() {
    const bool continuing = epoch_ == first_epoch_ && first_step_ > 0;
    epoch_rng_ = train_.shuffle_state();  // before this epoch's shuffle
    train_.start_epoch(epoch_);
    if (continuing) {  // the batches before the checkpoint were trained on already
        for (std::int64_t s = 0; s < first_step_; ++s) train_.next();
        refresh_running_metrics();  // in case the epoch has no step left
        ev_.metrics = running_;
    } else {
        for (auto& m : t_.metrics_) m->reset();
        loss_sum_ = 0;
        seen_ = 0;
    }
    step_ = continuing ? first_step_ : 0;
    window_images_ = window_rows_ = 0;
    window_wait_ = 0;
    window_start_ = Clock::now();
    ev_.epoch = epoch_;
}

FitLoop::Flow FitLoop::step() {
    if (parallel_ && step_ >= steps_per_epoch_) return Flow::EpochDone;  // a split source: every rank stops here
    const auto wait_start = Clock::now();
    BatchView batch;
    if (std::string err = data_error([&] { batch = train_.next(); }); !err.empty()) return fail_alone(err);
    window_wait_ += seconds_since(wait_start);
    if (batch.count == 0 && !parallel_) return Flow::EpochDone;

    PlanSlot* plan = nullptr;
    if (!parallel_) {
        plan = &feed_batch(batch, batch.count);
        // After the upload was queued (it overlaps the last backward pass), before the step's
        // iteration count: a skipped last step is uncounted.
        settle_loss_scale();
        if (loss_scale_) plan->loss.set_grad_scale(loss_scale_->scale());
    }
    const std::int64_t it = t_.optimizer_->iterations();
    const double lr = t_.schedule_->lr(t_.optimizer_->learning_rate(), it, steps_per_epoch_) * lr_scale_;
    std::int64_t rows = batch.count;
    double loss = 0;
    if (parallel_) {
        loss = parallel_step(batch, it, rows);
        if (rows == 0) {  // nothing to learn from; the step still counts, as on every rank
            ++step_;
            return Flow::Next;
        }
    } else {
        loss = plan->loss.forward_loss(*t_.loss_, batch.labels);
    }
    ev_.step = it + 1;
    ev_.learning_rate = lr;
    if (!std::isfinite(loss))
        return fail("the loss became " + std::string(std::isnan(loss) ? "NaN" : "infinite") + " at epoch " +
                    std::to_string(epoch_) + ", step " + std::to_string(it + 1) +
                    "; training stopped. Lower the learning rate or check the data.");
    if (plan) plan->plan->backward_and_update(t_.plans_->device(), *t_.optimizer_, lr);  // one unit on a GPU
    else apply_update(lr);
    scaled_update_pending_ = loss_scale_.has_value();
    loss_sum_ += loss * double(rows);
    seen_ += rows;
    window_images_ += rows;
    window_rows_ += batch.count;
    if (plan) update_metrics(t_.metrics_, *plan, batch.labels, batch.count);  // a parallel step did already
    ++result_.steps;
    ++step_;

    const bool last = step_ >= steps_per_epoch_;
    const bool log_point = step_ % t_.log_every_ == 0 || last;
    const bool ckpt = t_.checkpoint_sink_ && t_.checkpoint_policy_.every_steps > 0 &&
                      ev_.step % t_.checkpoint_policy_.every_steps == 0 && !last;
    if (log_point || every_step_ || ckpt || stop_now()) {
        refresh_running_metrics();
        ev_.metrics = running_;  // reuses ev_'s storage: no allocation after the first epoch
    }
    if (log_point) report_window();
    if (log_point || every_step_) notify_step(log_point, last);
    if (ckpt) {
        at_end_ = snapshot(epoch_, step_, epoch_rng_, loss_sum_, seen_);
        if (std::string err = offer(at_end_, ev_.metrics); !err.empty()) return fail_alone(err);
    }
    if (t_.pause_) {  // wait_while_paused takes a copy of ev_: only when pausing
        const auto paused_at = Clock::now();
        t_.wait_while_paused(ev_);
        window_start_ += Clock::now() - paused_at;  // throughput and ETA count training time only
    }
    if (stop_now()) {
        at_end_ = snapshot(epoch_, step_, epoch_rng_, loss_sum_, seen_);
        return finish(RunStatus::Stopped, "stopped by request at epoch " + std::to_string(epoch_) + ", step " +
                                     std::to_string(ev_.step), EventKind::Stopped);
    }
    return Flow::Next;
}

FitLoop::Flow FitLoop::end_epoch() {
    refresh_running_metrics();
    Metrics epoch_metrics = running_;  // also when failed files made the epoch shorter
    if (validation_) {
        EvalResult val;
        if (std::string err = data_error([&] { val = evaluate_batches(*validation_, *t_.plans_, *t_.loss_, t_.metrics_, parallel_); }); !err.empty())
            return fail_alone(err);
        for (const auto& [k, v] : val.metrics) epoch_metrics.emplace_back("val_" + k, v);
    }
    epoch_metrics.emplace_back("lr", ev_.learning_rate);
    result_.history.push_back(epoch_metrics);
    result_.epochs_run = epoch_ - first_epoch_ + 1;
    ev_.kind = EventKind::EpochEnd;
    ev_.metrics = epoch_metrics;
    refresh_profile();
    ev_.elapsed_seconds = seconds_since(run_start_);
    t_.notify(ev_);

    if (t_.reduce_lr_)
        lr_scale_ = t_.reduce_lr_->on_epoch_end(lookup(epoch_metrics, t_.reduce_lr_->monitor()), ev_.learning_rate);
    bool stop_early = false;
    if (EarlyStopping* es = t_.early_stopping_.get()) {
        stop_early = es->on_epoch_end(epoch_, lookup(epoch_metrics, es->monitor()));
        if (es->last_improved() && es->restore_best_weights()) keep_best_weights();
    }
    at_end_ = snapshot(epoch_ + 1, 0, train_.shuffle_state(), 0, 0);
    const std::int64_t every = t_.checkpoint_policy_.every_epochs;
    if (every > 0 && epoch_ % every == 0)
        if (std::string err = offer(at_end_, epoch_metrics); !err.empty()) return fail_alone(err);
    if (stop_early)
        return finish(RunStatus::EarlyStopped,
                      "early stopping: " + t_.early_stopping_->monitor() + " did not improve after epoch " +
                          std::to_string(t_.early_stopping_->best_epoch()),
                      EventKind::Finished);
    return Flow::Next;
}

// Ends the run: the end-of-run checkpoint (whose failure fails the run), the best weights back
// when EarlyStopping keeps them, and the last event.
FitLoop::Flow FitLoop::finish(RunStatus status, const std::string& message, EventKind kind) {
    result_.status = status;
    result_.message = message;
    if (t_.checkpoint_policy_.at_end && kind != EventKind::Failed) {
        if (std::string err = offer(at_end_, ev_.metrics); !err.empty()) {
            result_.status = RunStatus::Failed;
            result_.message = err;
            kind = EventKind::Failed;
        }
    }
    t_.plans_->device().pull_weights();
    if (t_.early_stopping_ && t_.early_stopping_->restore_best_weights() && !best_weights_.empty())
        restore_best_weights();
    ev_.kind = kind;
    ev_.message = result_.message;
    ev_.elapsed_seconds = seconds_since(run_start_);
    refresh_profile();
    t_.notify(ev_);
    return Flow::Ended;
}

PlanSlot& FitLoop::feed_batch(const BatchView& batch, std::int64_t global_rows) {
    return feed(*t_.plans_, batch, true, part_of(global_rows));
}

PlanSlot& FitLoop::training_plan(std::int64_t global_rows) {
    return t_.plans_->get(local_rows(global_rows), true, part_of(global_rows));
}

BatchPart FitLoop::part_of(std::int64_t global_rows) const {
    if (!parallel_) return {};
    const Communicator& c = parallel_->comm();
    return {.first_row = Shard{c.rank(), c.size()}.begin(global_rows), .global_rows = global_rows};
}

std::int64_t FitLoop::local_rows(std::int64_t global_rows) const {
    if (!parallel_) return global_rows;
    const Communicator& c = parallel_->comm();
    return Shard{c.rank(), c.size()}.size(global_rows);
}

double FitLoop::parallel_step(const BatchView& batch, std::int64_t it, std::int64_t& rows) {
    const std::int64_t global_rows = std::min(bs_, n_ - step_ * bs_);  // before files that failed
    double loss_sum = 0;
    if (batch.count > 0) {
        PlanSlot& plan = feed_batch(batch, global_rows);
        parallel_->begin_step(*plan.plan, batch.count, global_rows, it);
        loss_sum = train_step(plan, batch.labels) * double(batch.count);
        update_metrics(t_.metrics_, plan, batch.labels, batch.count);
    } else {
        parallel_->begin_step(*training_plan(bs_).plan, 0, global_rows, it);
        parallel_->skip_backward();
    }
    const DataParallel::Totals world = parallel_->finish_step(loss_sum, t_.stop_);
    // A stop asked on one rank stops all at this step. The decision is the sum's, never
    // t_.stop_ read again later: a request that lands after the sum (a signal reaches the
    // ranks at slightly different times) would stop this rank alone, the others waiting for
    // it; it goes into the next step's sum instead.
    world_stop_ = world.stop;
    if (world.stop) t_.stop_ = true;
    rows = world.rows;
    return rows > 0 ? world.loss_sum / double(rows) : 0.0;
}

// forward, the loss on the host, backward: the gradients land in the device model's buffer.
double FitLoop::train_step(PlanSlot& plan, const std::int32_t* labels) {
    return plan.loss.train_step(*t_.loss_, labels);
}

void FitLoop::apply_update(double lr) { t_.plans_->device().update(*t_.optimizer_, lr); }

void FitLoop::keep_best_weights() {
    t_.plans_->device().pull_weights();
    best_weights_ = t_.model_.weights();
}

FitLoop::Flow FitLoop::fail_alone(const std::string& message) {
    if (parallel_) parallel_->comm().abort(message);
    return fail(message);
}

void FitLoop::restore_best_weights() {
    t_.model_.weights() = best_weights_;
    t_.plans_->device().push_weights();
}

// Dropout masks count the steps each plan ran: full batches, and one remainder per epoch.
void FitLoop::seek_dropout(const TrainState& s) {
    const std::int64_t full_per_epoch = n_ / bs_, done_epochs = s.epoch - 1;
    training_plan(bs_).plan->seek_rng(std::uint64_t(done_epochs * full_per_epoch + std::min(s.step_in_epoch, full_per_epoch)));
    if (local_rows(n_ % bs_))
        training_plan(n_ % bs_).plan->seek_rng(std::uint64_t(done_epochs + (s.step_in_epoch > full_per_epoch ? 1 : 0)));
}

TrainState FitLoop::snapshot(std::int64_t epoch, std::int64_t step_in_epoch, const std::string& rng, double loss_sum,
                             std::int64_t seen) {
    settle_loss_scale();  // the state of the steps taken, not of one still undecided
    TrainState s;
    s.epoch = epoch;
    s.step_in_epoch = step_in_epoch;
    s.iterations = t_.optimizer_->iterations();
    s.steps_per_epoch = steps_per_epoch_;
    s.shuffle_rng = rng;
    s.loss_sum = loss_sum;
    s.seen = seen;
    s.learning_rate = ev_.learning_rate;
    s.lr_scale = lr_scale_;
    for (const auto& m : reported_) s.metric_states.emplace_back(m->name(), m->state());
    if (t_.early_stopping_) s.early_stopping = t_.early_stopping_->state();
    if (t_.reduce_lr_) s.reduce_lr = t_.reduce_lr_->state();
    s.best_weights = best_weights_;
    if (loss_scale_) s.loss_scale = loss_scale_->state();
    return s;
}

// Keras' LossScaleOptimizer: a skipped step does not count as an optimizer iteration.
void FitLoop::settle_loss_scale() {
    if (!loss_scale_) return;
    DeviceModel& device = t_.plans_->device();
    if (scaled_update_pending_) {
        const bool skipped = device.last_update_skipped();
        loss_scale_->after_step(!skipped);
        if (skipped) t_.optimizer_->set_iterations(t_.optimizer_->iterations() - 1);
        scaled_update_pending_ = false;
    }
    device.set_loss_scale(loss_scale_->scale());
}

// Offers a checkpoint once per optimizer step.
std::string FitLoop::offer(const TrainState& s, const Metrics& m) {
    if (!t_.checkpoint_sink_ || s.iterations == offered_at_) return "";
    offered_at_ = s.iterations;
    t_.plans_->device().pull_weights();  // the sink saves the host model's weights
    try {
        t_.checkpoint_sink_->save(s, m);
    } catch (const std::exception& e) {
        return std::string("the checkpoint at step ") + std::to_string(s.iterations) + " was not saved: " + e.what();
    }
    return "";
}

// Data that goes away mid-run (a runtime error from a source) ends the run as failed, like a
// NaN loss: the checkpoints before it stay, and observers see a Failed event.
template <class Read>
std::string FitLoop::data_error(Read&& read) {
    try {
        read();
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::Runtime) throw;
        return std::string(e.what()) + "; training stopped at epoch " + std::to_string(ev_.epoch) + ", step " +
               std::to_string(ev_.step);
    }
    return "";
}

// Values only: the names were set once, so this allocates nothing.
void FitLoop::refresh_running_metrics() {
    running_[0].second = seen_ ? loss_sum_ / double(seen_) : 0.0;
    for (std::size_t i = 0; i < reported_.size(); ++i) running_[i + 1].second = reported_[i]->result();
}

void FitLoop::report_window() {
    const double dt = seconds_since(window_start_);
    ev_.images_per_second = dt > 0 ? double(window_images_) / dt : 0;
    ev_.data_wait_fraction = dt > 0 ? window_wait_ / dt : 0;
    ev_.data = train_.stats();
    window_wait_ = 0;
    const double steps_left = double(ev_.total_steps - done_before_ - result_.steps);  // this fit only
    ev_.eta_seconds = ev_.images_per_second > 0 ? steps_left * double(bs_) / ev_.images_per_second : 0;
    ev_.elapsed_seconds = seconds_since(run_start_);
    if (parallel_) ev_.rank_images_per_second = parallel_->throughput(dt > 0 ? double(window_rows_) / dt : 0);
    window_images_ = window_rows_ = 0;
    window_start_ = Clock::now();
    refresh_profile();
}

// Copy-assigned into the same storage each time: no allocation after the first (the execution
// text changes only when a pass starts replaying or falls back).
void FitLoop::refresh_profile() {
    const Plan& plan = *training_plan(bs_).plan;
    ev_.profile = plan.profile();
    ev_.execution = plan.execution();
}

// The last step of an epoch is reported by its EpochEnd event, except to every-step observers.
void FitLoop::notify_step(bool log_point, bool last) {
    ev_.kind = EventKind::Step;
    for (TrainObserver* o : t_.observers_)
        if ((log_point && !last) || o->wants_every_step()) o->on_event(ev_);
}

}  // namespace lf
