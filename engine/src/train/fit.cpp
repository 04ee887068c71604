// Trainer::fit: the training loop. Per step it takes one batch from the source, copies it into
// the plan, runs forward, loss and backward, and updates the weights; nothing here allocates
// after the first epoch.
#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>

#include "layerforge/core/error.h"
#include "layerforge/graph/plan.h"
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

FitResult Trainer::fit(const TensorDataset& train, const TensorDataset* validation) {
    check_dataset(train, "training");
    if (validation) check_dataset(*validation, "validation");
    if (train.size() == 0) throw input_error("the training data is empty");
    TensorSource train_source(train, config_.batch_size, config_.shuffle, std::uint64_t(config_.seed));
    std::optional<TensorSource> validation_source;
    if (validation) validation_source.emplace(*validation, config_.batch_size, false, 0);
    return fit(train_source, validation_source ? &*validation_source : nullptr);
}

FitResult Trainer::fit(BatchSource& train, BatchSource* validation) {
    check_source(train.sample_shape(), train.class_names().size(), "training");
    if (validation) check_source(validation->sample_shape(), validation->class_names().size(), "validation");
    if (train.size() == 0) throw input_error("the training data is empty");
    stop_ = false;  // requests from an earlier run do not carry over
    pause_ = false;
    make_callbacks();  // a second fit must not inherit the last run's best value, wait count or lr scale

    const std::int64_t n = train.size(), bs = train.batch_size();
    const std::int64_t steps_per_epoch = train.steps_per_epoch(), epochs = config_.epochs;
    const std::size_t width = std::size_t(train.sample_shape().elements());
    std::vector<float> best_weights;
    double lr_scale = 1.0;
    plan_for(std::min(bs, n), true);
    if (n % bs && n > bs) plan_for(n % bs, true);

    FitResult result;
    TrainEvent ev;
    ev.epochs = epochs;
    ev.steps_per_epoch = steps_per_epoch;
    ev.total_steps = steps_per_epoch * epochs;
    ev.kind = EventKind::RunStarted;
    notify(ev);
    const auto run_start = Clock::now();

    auto finish = [&](const std::string& status, const std::string& message, EventKind kind) {
        if (early_stopping_ && early_stopping_->restore_best_weights() && !best_weights.empty())
            model_.weights() = best_weights;
        result.status = status;
        result.message = message;
        ev.kind = kind;
        ev.message = message;
        ev.elapsed_seconds = seconds_since(run_start);
        notify(ev);
        return result;
    };

    for (std::int64_t epoch = 1; epoch <= epochs; ++epoch) {
        train.start_epoch(epoch);
        for (auto& m : metrics_) m->reset();
        double loss_sum = 0;
        std::int64_t seen = 0, window_images = 0;
        double window_wait = 0;
        auto window_start = Clock::now();
        ev.epoch = epoch;
        auto running_metrics = [&] {
            Metrics m{{"loss", seen ? loss_sum / double(seen) : 0.0}};
            for (auto& metric : metrics_) m.emplace_back(metric->name(), metric->result());
            return m;
        };

        std::int64_t s = 0;
        for (;; ++s) {
            const auto wait_start = Clock::now();
            const BatchView batch = train.next();
            window_wait += seconds_since(wait_start);
            if (batch.count == 0) break;
            const std::int64_t count = batch.count;
            Plan& plan = plan_for(count, true);
            std::memcpy(plan.input(), batch.images, std::size_t(count) * width * sizeof(float));
            const std::int32_t* labels = batch.labels;
            std::int64_t it = optimizer_->iterations();
            double lr = schedule_->lr(optimizer_->learning_rate(), it, steps_per_epoch) * lr_scale;
            double loss = plan.train_step(labels, *loss_);
            ev.step = it + 1;
            ev.learning_rate = lr;
            if (!std::isfinite(loss))
                return finish("failed",
                              "the loss became " + std::string(std::isnan(loss) ? "NaN" : "infinite") + " at epoch " +
                                  std::to_string(epoch) + ", step " + std::to_string(it + 1) +
                                  "; training stopped. Lower the learning rate or check the data.",
                              EventKind::Failed);
            optimizer_->step(model_.weights().data(), model_.grads().data(), model_.weights().size(), lr);
            loss_sum += loss * double(count);
            seen += count;
            window_images += count;
            for (auto& m : metrics_) m->update(plan.output(), labels, count, plan.output_width());
            ++result.steps;

            bool last = s + 1 >= steps_per_epoch;
            if ((s + 1) % log_every_ == 0 || last) {
                double dt = seconds_since(window_start);
                ev.kind = EventKind::Step;
                ev.images_per_second = dt > 0 ? double(window_images) / dt : 0;
                ev.data_wait_fraction = dt > 0 ? window_wait / dt : 0;
                ev.data = train.stats();
                window_wait = 0;
                double steps_left = double(ev.total_steps - result.steps);  // this fit only
                ev.eta_seconds = ev.images_per_second > 0 ? steps_left * double(bs) / ev.images_per_second : 0;
                ev.elapsed_seconds = seconds_since(run_start);
                ev.metrics = running_metrics();
                if (!last) notify(ev);
                window_images = 0;
                window_start = Clock::now();
            }
            wait_while_paused(ev);
            if (stop_) return finish("stopped", "stopped by request at epoch " + std::to_string(epoch) + ", step " +
                                                    std::to_string(ev.step), EventKind::Stopped);
        }

        Metrics epoch_metrics = running_metrics();  // also when failed files made the epoch shorter
        if (validation)
            for (const auto& [k, v] : evaluate(*validation).metrics) epoch_metrics.emplace_back("val_" + k, v);
        epoch_metrics.emplace_back("lr", ev.learning_rate);
        result.history.push_back(epoch_metrics);
        result.epochs_run = epoch;
        ev.kind = EventKind::EpochEnd;
        ev.metrics = epoch_metrics;
        ev.elapsed_seconds = seconds_since(run_start);
        notify(ev);

        if (reduce_lr_) lr_scale = reduce_lr_->on_epoch_end(lookup(epoch_metrics, reduce_lr_->monitor()), ev.learning_rate);
        if (early_stopping_) {
            bool stop = early_stopping_->on_epoch_end(epoch, lookup(epoch_metrics, early_stopping_->monitor()));
            if (early_stopping_->last_improved() && early_stopping_->restore_best_weights())
                best_weights = model_.weights();
            if (stop)
                return finish("early_stopped",
                              "early stopping: " + early_stopping_->monitor() + " did not improve after epoch " +
                                  std::to_string(early_stopping_->best_epoch()),
                              EventKind::Finished);
        }
    }
    return finish("finished", "", EventKind::Finished);
}

}  // namespace lf
