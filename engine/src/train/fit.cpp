// Trainer::fit: the training loop. Per step it takes one batch from the source, copies it into
// the plan, runs forward, loss and backward, and updates the weights; nothing here allocates
// after the first epoch.
// Between steps it offers checkpoints (a TrainState) to the sink, and a resumed fit starts
// from such a state: same permutations, dropout masks, running means, rates and callbacks.
#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>

#include "layerforge/core/error.h"
#include "layerforge/backend/backend.h"
#include "train/plan_slot.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/metrics.h"
#include "layerforge/train/optimizer.h"
#include "layerforge/train/schedule.h"
#include "layerforge/train/trainer.h"

namespace lf {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double lookup(const Metrics& m, const std::string& name) {
    for (const auto& [k, v] : m)
        if (k == name) return v;
    throw input_error("callback monitors '" + name + "', which this run does not report");
}

}  // namespace

TrainState Trainer::snapshot(std::int64_t epoch, std::int64_t step_in_epoch, std::int64_t steps_per_epoch,
                             const std::string& rng, double loss_sum, std::int64_t seen, double lr,
                             double lr_scale, const std::vector<float>& best_weights) const {
    TrainState s;
    s.epoch = epoch;
    s.step_in_epoch = step_in_epoch;
    s.iterations = optimizer_->iterations();
    s.steps_per_epoch = steps_per_epoch;
    s.shuffle_rng = rng;
    s.loss_sum = loss_sum;
    s.seen = seen;
    s.learning_rate = lr;
    s.lr_scale = lr_scale;
    for (const auto& m : metrics_) s.metric_states.emplace_back(m->name(), m->state());
    if (early_stopping_) s.early_stopping = early_stopping_->state();
    if (reduce_lr_) s.reduce_lr = reduce_lr_->state();
    s.best_weights = best_weights;
    return s;
}

void Trainer::resume_from(const TrainState& s, std::int64_t n, std::int64_t bs) {
    optimizer_->set_iterations(s.iterations);
    if (s.step_in_epoch > 0) {  // mid-epoch: the running metrics continue
        if (s.metric_states.size() != metrics_.size())
            throw input_error("the checkpoint has " + std::to_string(s.metric_states.size()) +
                              " metric states but the run reports " + std::to_string(metrics_.size()) +
                              " metrics; resume with the metrics it was trained with");
        for (std::size_t i = 0; i < metrics_.size(); ++i) metrics_[i]->set_state(s.metric_states[i].second);
    }
    if (early_stopping_ && s.early_stopping) early_stopping_->set_state(*s.early_stopping);
    if (reduce_lr_ && s.reduce_lr) reduce_lr_->set_state(*s.reduce_lr);
    // Dropout masks count the steps each plan ran: full batches, and one remainder per epoch.
    const std::int64_t full_per_epoch = n / bs, done_epochs = s.epoch - 1;
    plan_for(bs, true).plan->seek_rng(std::uint64_t(done_epochs * full_per_epoch + std::min(s.step_in_epoch, full_per_epoch)));
    if (n % bs)
        plan_for(n % bs, true).plan->seek_rng(std::uint64_t(done_epochs + (s.step_in_epoch > full_per_epoch ? 1 : 0)));
}

FitResult Trainer::fit(const TensorDataset& train, const TensorDataset* validation, const TrainState* resume) {
    check_dataset(train, "training");
    if (validation) check_dataset(*validation, "validation");
    if (train.size() == 0) throw input_error("the training data is empty");
    TensorSource train_source(train, config_.batch_size, config_.shuffle, std::uint64_t(config_.seed));
    std::optional<TensorSource> validation_source;
    if (validation) validation_source.emplace(*validation, config_.batch_size, false, 0);
    return fit(train_source, validation_source ? &*validation_source : nullptr, resume);
}

FitResult Trainer::fit(BatchSource& train, BatchSource* validation, const TrainState* resume) {
    check_source(train.sample_shape(), train.class_names().size(), "training");
    if (validation) check_source(validation->sample_shape(), validation->class_names().size(), "validation");
    if (train.size() == 0) throw input_error("the training data is empty");
    stop_ = false;  // requests from an earlier run do not carry over
    pause_ = false;
    make_callbacks();  // a second fit must not inherit the last run's best value, wait count or lr scale

    const std::int64_t n = train.size(), bs = std::min(train.batch_size(), n);
    const std::int64_t steps_per_epoch = train.steps_per_epoch(), epochs = config_.epochs;
    std::vector<float> best_weights;
    double lr_scale = 1.0, loss_sum = 0;
    std::int64_t first_epoch = 1, first_step = 0, seen = 0;
    plan_for(bs, true);
    if (n % bs) plan_for(n % bs, true);
    device_->push_weights();  // the host model's weights: initialised, restored or resumed

    FitResult result;
    TrainEvent ev;
    if (resume) {
        if (resume->steps_per_epoch != steps_per_epoch)
            throw input_error("the checkpoint was taken with " + std::to_string(resume->steps_per_epoch) +
                              " steps per epoch but this run has " + std::to_string(steps_per_epoch) +
                              "; resume with the same data size and batch size");
        train.set_shuffle_state(resume->shuffle_rng);
        resume_from(*resume, n, bs);
        lr_scale = resume->lr_scale;
        best_weights = resume->best_weights;
        first_epoch = resume->epoch;
        first_step = resume->step_in_epoch;
        loss_sum = resume->loss_sum;
        seen = resume->seen;
        ev.learning_rate = resume->learning_rate;
        ev.step = resume->iterations;
    }
    const std::int64_t done_before = (first_epoch - 1) * steps_per_epoch + first_step;
    ev.epochs = epochs;
    ev.steps_per_epoch = steps_per_epoch;
    ev.total_steps = steps_per_epoch * epochs;
    ev.kind = EventKind::RunStarted;
    notify(ev);
    const auto run_start = Clock::now();
    bool every_step = false;
    for (TrainObserver* o : observers_) every_step = every_step || o->wants_every_step();

    // Offers a checkpoint once per optimizer step; returns an error message when the sink failed.
    std::int64_t offered_at = resume ? resume->iterations : -1;
    auto offer = [&](const TrainState& s, const Metrics& m) -> std::string {
        if (!checkpoint_sink_ || s.iterations == offered_at) return "";
        offered_at = s.iterations;
        device_->pull_weights();  // the sink saves the host model's weights
        try {
            checkpoint_sink_->save(s, m);
        } catch (const std::exception& e) {
            return std::string("the checkpoint at step ") + std::to_string(s.iterations) + " was not saved: " + e.what();
        }
        return "";
    };

    TrainState at_end;  // what an end-of-run checkpoint saves; kept current between steps
    auto finish = [&](RunStatus status, const std::string& message, EventKind kind) {
        std::string why = message;
        EventKind k = kind;
        RunStatus st = status;
        if (checkpoint_policy_.at_end && kind != EventKind::Failed) {
            std::string err = offer(at_end, ev.metrics);
            if (!err.empty()) {
                st = RunStatus::Failed;
                why = err;
                k = EventKind::Failed;
            }
        }
        device_->pull_weights();
        if (early_stopping_ && early_stopping_->restore_best_weights() && !best_weights.empty()) {
            model_.weights() = best_weights;
            device_->push_weights();
        }
        result.status = st;
        result.message = why;
        ev.kind = k;
        ev.message = why;
        ev.elapsed_seconds = seconds_since(run_start);
        notify(ev);
        return result;
    };
    auto failed = [&](const std::string& message) { return finish(RunStatus::Failed, message, EventKind::Failed); };
    // Data that goes away mid-run (a runtime error from a source) ends the run as failed, like a
    // NaN loss: the checkpoints before it stay, and observers see a Failed event.
    auto data_error = [&](auto&& read) -> std::string {
        try {
            read();
        } catch (const Error& e) {
            if (e.kind() != ErrorKind::Runtime) throw;
            return std::string(e.what()) + "; training stopped at epoch " + std::to_string(ev.epoch) + ", step " +
                   std::to_string(ev.step);
        }
        return "";
    };

    std::string epoch_rng = train.shuffle_state();
    at_end = snapshot(first_epoch, first_step, steps_per_epoch, epoch_rng, loss_sum, seen, ev.learning_rate, lr_scale,
                      best_weights);
    for (std::int64_t epoch = first_epoch; epoch <= epochs; ++epoch) {
        const bool continuing = epoch == first_epoch && first_step > 0;
        epoch_rng = train.shuffle_state();  // before this epoch's shuffle: what a mid-epoch checkpoint resumes
        train.start_epoch(epoch);
        if (!continuing) {
            for (auto& m : metrics_) m->reset();
            loss_sum = 0;
            seen = 0;
        }
        auto running_metrics = [&] {
            Metrics m{{"loss", seen ? loss_sum / double(seen) : 0.0}};
            for (auto& metric : metrics_) m.emplace_back(metric->name(), metric->result());
            return m;
        };
        if (continuing) {  // the batches before the checkpoint were trained on already
            for (std::int64_t s = 0; s < first_step; ++s) train.next();
            ev.metrics = running_metrics();  // in case the epoch has no step left
        }
        std::int64_t window_images = 0;
        double window_wait = 0;
        auto window_start = Clock::now();
        ev.epoch = epoch;

        for (std::int64_t s = continuing ? first_step : 0;; ++s) {
            const auto wait_start = Clock::now();
            BatchView batch;
            if (std::string err = data_error([&] { batch = train.next(); }); !err.empty()) return failed(err);
            window_wait += seconds_since(wait_start);
            if (batch.count == 0) break;
            const std::int64_t count = batch.count;
            PlanSlot& slot = plan_for(count, true);
            slot.plan->set_input(batch.images);
            const std::int32_t* labels = batch.labels;
            std::int64_t it = optimizer_->iterations();
            double lr = schedule_->lr(optimizer_->learning_rate(), it, steps_per_epoch) * lr_scale;
            double loss = slot.loss.train_step(*loss_, labels);
            ev.step = it + 1;
            ev.learning_rate = lr;
            if (!std::isfinite(loss))
                return failed("the loss became " + std::string(std::isnan(loss) ? "NaN" : "infinite") + " at epoch " +
                              std::to_string(epoch) + ", step " + std::to_string(it + 1) +
                              "; training stopped. Lower the learning rate or check the data.");
            device_->update(*optimizer_, lr);
            loss_sum += loss * double(count);
            seen += count;
            window_images += count;
            for (auto& m : metrics_) m->update(slot.loss.output(), labels, count, slot.plan->output_width());
            ++result.steps;

            const bool last = s + 1 >= steps_per_epoch;
            const bool log_point = (s + 1) % log_every_ == 0 || last;
            const bool ckpt = checkpoint_sink_ && checkpoint_policy_.every_steps > 0 &&
                              ev.step % checkpoint_policy_.every_steps == 0 && !last;
            if (log_point || every_step || ckpt || stop_) ev.metrics = running_metrics();
            if (log_point) {
                double dt = seconds_since(window_start);
                ev.images_per_second = dt > 0 ? double(window_images) / dt : 0;
                ev.data_wait_fraction = dt > 0 ? window_wait / dt : 0;
                ev.data = train.stats();
                window_wait = 0;
                double steps_left = double(ev.total_steps - done_before - result.steps);  // this fit only
                ev.eta_seconds = ev.images_per_second > 0 ? steps_left * double(bs) / ev.images_per_second : 0;
                ev.elapsed_seconds = seconds_since(run_start);
                window_images = 0;
                window_start = Clock::now();
            }
            if (log_point || every_step) {
                ev.kind = EventKind::Step;
                for (TrainObserver* o : observers_)
                    if ((log_point && !last) || o->wants_every_step()) o->on_event(ev);
            }
            if (ckpt) {
                at_end = snapshot(epoch, s + 1, steps_per_epoch, epoch_rng, loss_sum, seen, lr, lr_scale, best_weights);
                if (std::string err = offer(at_end, ev.metrics); !err.empty()) return failed(err);
            }
            if (pause_) wait_while_paused(ev);  // takes a copy of ev: only when pausing
            if (stop_) {
                at_end = snapshot(epoch, s + 1, steps_per_epoch, epoch_rng, loss_sum, seen, lr, lr_scale, best_weights);
                return finish(RunStatus::Stopped, "stopped by request at epoch " + std::to_string(epoch) + ", step " +
                                             std::to_string(ev.step), EventKind::Stopped);
            }
        }

        Metrics epoch_metrics = running_metrics();  // also when failed files made the epoch shorter
        if (validation) {
            EvalResult val;
            if (std::string err = data_error([&] { val = evaluate_on_device(*validation); }); !err.empty())
                return failed(err);
            for (const auto& [k, v] : val.metrics) epoch_metrics.emplace_back("val_" + k, v);
        }
        epoch_metrics.emplace_back("lr", ev.learning_rate);
        result.history.push_back(epoch_metrics);
        result.epochs_run = epoch - first_epoch + 1;
        ev.kind = EventKind::EpochEnd;
        ev.metrics = epoch_metrics;
        ev.elapsed_seconds = seconds_since(run_start);
        notify(ev);

        if (reduce_lr_) lr_scale = reduce_lr_->on_epoch_end(lookup(epoch_metrics, reduce_lr_->monitor()), ev.learning_rate);
        bool stop_early = false;
        if (early_stopping_) {
            stop_early = early_stopping_->on_epoch_end(epoch, lookup(epoch_metrics, early_stopping_->monitor()));
            if (early_stopping_->last_improved() && early_stopping_->restore_best_weights()) {
                device_->pull_weights();
                best_weights = model_.weights();
            }
        }
        at_end = snapshot(epoch + 1, 0, steps_per_epoch, train.shuffle_state(), 0, 0, ev.learning_rate, lr_scale, best_weights);
        if (checkpoint_policy_.every_epochs > 0 && epoch % checkpoint_policy_.every_epochs == 0)
            if (std::string err = offer(at_end, epoch_metrics); !err.empty()) return failed(err);
        if (stop_early)
            return finish(RunStatus::EarlyStopped,
                          "early stopping: " + early_stopping_->monitor() + " did not improve after epoch " +
                              std::to_string(early_stopping_->best_epoch()),
                          EventKind::Finished);
    }
    return finish(RunStatus::Finished, "", EventKind::Finished);
}

}  // namespace lf
