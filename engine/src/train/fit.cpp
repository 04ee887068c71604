// Trainer::fit: the training loop. Per step it copies one batch into the plan, runs forward,
// loss and backward, and updates the weights; nothing here allocates after the first epoch.
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

#include "layerforge/core/error.h"
#include "layerforge/graph/plan.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/metrics.h"
#include "layerforge/train/optimizer.h"
#include "layerforge/train/schedule.h"
#include "layerforge/train/trainer.h"
#include "train/batch_feed.h"

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
    stop_ = false;  // requests from an earlier run do not carry over
    pause_ = false;
    make_callbacks();  // a second fit must not inherit the last run's best value, wait count or lr scale

    const std::int64_t n = train.size(), bs = std::min<std::int64_t>(config_.batch_size, n);
    const std::int64_t steps_per_epoch = (n + bs - 1) / bs, epochs = config_.epochs;
    std::vector<std::int64_t> order(std::size_t(n), 0);
    std::vector<std::int32_t> labels(static_cast<std::size_t>(bs));
    std::vector<float> best_weights;
    std::mt19937_64 rng(std::uint64_t(config_.seed));
    double lr_scale = 1.0;
    plan_for(bs, true);
    if (n % bs) plan_for(n % bs, true);

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
        std::iota(order.begin(), order.end(), 0);
        if (config_.shuffle)
            for (std::int64_t i = n - 1; i > 0; --i) std::swap(order[std::size_t(i)], order[rng() % std::uint64_t(i + 1)]);
        for (auto& m : metrics_) m->reset();
        double loss_sum = 0;
        std::int64_t seen = 0, window_images = 0;
        auto window_start = Clock::now();
        ev.epoch = epoch;

        for (std::int64_t s = 0; s < steps_per_epoch; ++s) {
            const std::int64_t count = std::min(bs, n - s * bs);
            Plan& plan = plan_for(count, true);
            gather_batch(train, order.data() + s * bs, count, plan.input(), labels.data());
            std::int64_t it = optimizer_->iterations();
            double lr = schedule_->lr(optimizer_->learning_rate(), it, steps_per_epoch) * lr_scale;
            double loss = plan.train_step(labels.data(), *loss_);
            ev.step = it + 1;
            ev.learning_rate = lr;
            if (!std::isfinite(loss))
                return finish("failed",
                              "the loss became " + std::string(std::isnan(loss) ? "NaN" : "infinite") + " at epoch " +
                                  std::to_string(epoch) + ", step " + std::to_string(it + 1) +
                                  "; training stopped. Lower the learning rate or check the data.",
                              EventKind::Failed);
            optimizer_->step(model_.weights().data(), model_.grads().data(), model_.trainable_size(), lr);
            loss_sum += loss * double(count);
            seen += count;
            window_images += count;
            for (auto& m : metrics_) m->update(plan.output(), labels.data(), count, plan.output_width());
            ++result.steps;

            bool last = s + 1 == steps_per_epoch;
            if ((s + 1) % log_every_ == 0 || last) {
                double dt = seconds_since(window_start);
                ev.kind = EventKind::Step;
                ev.images_per_second = dt > 0 ? double(window_images) / dt : 0;
                double steps_left = double(ev.total_steps - result.steps);  // this fit only
                ev.eta_seconds = ev.images_per_second > 0 ? steps_left * double(bs) / ev.images_per_second : 0;
                ev.elapsed_seconds = seconds_since(run_start);
                ev.metrics = {{"loss", loss_sum / double(seen)}};
                for (auto& m : metrics_) ev.metrics.emplace_back(m->name(), m->result());
                if (!last) notify(ev);
                window_images = 0;
                window_start = Clock::now();
            }
            if (pause_) wait_while_paused(ev);  // takes a copy of ev: only when pausing
            if (stop_) return finish("stopped", "stopped by request at epoch " + std::to_string(epoch) + ", step " +
                                                    std::to_string(ev.step), EventKind::Stopped);
        }

        Metrics epoch_metrics = ev.metrics;
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
