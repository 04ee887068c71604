#pragma once
// One run of Trainer::fit as an object: the run's state as members and one method per phase,
// so each reads on its own. run() is the whole loop:
//   start -> per epoch: start_epoch, step until the epoch's batches are done, end_epoch -> finish
// A phase that ends the run (failure, stop request, early stop) calls finish() and says so.
// step() allocates nothing once the first epoch has run, even when an observer wants every step.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layerforge/train/loss_scale.h"
#include "layerforge/train/trainer.h"

namespace lf {

struct BatchPart;
struct PlanSlot;
class DataParallel;
class Metric;

class FitLoop {
public:
    // Takes over a resumed run's state; throws lf::Error (Input) when it does not fit this data.
    FitLoop(Trainer& trainer, BatchSource& train, BatchSource* validation, const TrainState* resume);
    FitResult run();

private:
    using Clock = std::chrono::steady_clock;
    enum class Flow { Next, EpochDone, Ended };  // what a phase leaves the loop to do next

    // The phases.
    void start();
    void start_epoch();
    Flow step();
    Flow end_epoch();
    Flow finish(RunStatus status, const std::string& message, EventKind kind);
    Flow fail(const std::string& message) { return finish(RunStatus::Failed, message, EventKind::Failed); }
    // A failure this rank alone saw (its data went away, its checkpoint was not saved): in a
    // data-parallel run the other ranks would wait for it, so the whole job ends here.
    Flow fail_alone(const std::string& message);

    // The plan and the device's weights, one function per interaction.
    PlanSlot& feed_batch(const BatchView& batch, std::int64_t global_rows);
    // The training plan for this rank's rows of a global batch of `global_rows`.
    PlanSlot& training_plan(std::int64_t global_rows);
    BatchPart part_of(std::int64_t global_rows) const;
    double train_step(PlanSlot& plan, const std::int32_t* labels);
    // This rank's part of a data-parallel step: returns the world's mean loss and sets `rows`
    // to the world's rows (0: every file of the batch failed, on every rank).
    double parallel_step(const BatchView& batch, std::int64_t it, std::int64_t& rows);
    std::int64_t local_rows(std::int64_t global_rows) const;
    void apply_update(double lr);
    void keep_best_weights();
    void restore_best_weights();
    void seek_dropout(const TrainState& s);
    // mixed_float16: the outcome of the last update (applied or skipped) into the loss scale,
    // a skipped step uncounted, and the scale handed to the device and the loss for the next.
    void settle_loss_scale();

    // Pieces of the phases.
    void resume(const TrainState& s);
    TrainState snapshot(std::int64_t epoch, std::int64_t step_in_epoch, const std::string& rng, double loss_sum,
                        std::int64_t seen);
    std::string offer(const TrainState& s, const Metrics& m);  // the error message when the sink failed
    template <class Read>
    std::string data_error(Read&& read);                       // the message when the data went away
    void refresh_running_metrics();
    void report_window();                                      // throughput and ETA at a log point
    void refresh_profile();                                    // the training plan's, into ev_
    void notify_step(bool log_point, bool last);
    // Whether this step ends the run on a request: this process's, or in a data-parallel run
    // the world's, as the step's sum decided it (every rank the same).
    bool stop_now() const { return parallel_ ? world_stop_ : bool(t_.stop_); }

    Trainer& t_;
    BatchSource& train_;
    BatchSource* validation_;
    DataParallel* parallel_;  // null: a single process
    // The metrics the run reports: this process's, or in a data-parallel run the world's.
    const std::vector<std::unique_ptr<Metric>>& reported_;

    // Fixed for the run.
    const std::int64_t n_, bs_, steps_per_epoch_, epochs_;  // the global batch and its steps
    std::int64_t first_epoch_ = 1, first_step_ = 0;  // where this fit starts (a resume: mid-run)
    std::int64_t done_before_ = 0;                   // steps done before this fit
    bool every_step_ = false;                        // an observer wants every step
    Clock::time_point run_start_;

    // The run so far.
    FitResult result_;
    TrainEvent ev_;                  // the event in the making; observers get it by reference
    Metrics running_;                // "loss" and the metrics, refreshed in place
    std::vector<float> best_weights_;
    std::optional<LossScale> loss_scale_;  // mixed_float16 only
    bool scaled_update_pending_ = false;   // an update ran with loss scaling since the last settle
    double lr_scale_ = 1.0, loss_sum_ = 0;
    std::int64_t seen_ = 0;
    bool world_stop_ = false;        // a data-parallel step's stop decision, from its sum
    std::int64_t offered_at_ = -1;   // the optimizer step last offered as a checkpoint
    TrainState at_end_;              // what an end-of-run checkpoint saves; kept current between steps
    std::string epoch_rng_;          // shuffle state before this epoch's shuffle: what a mid-epoch checkpoint resumes

    // The epoch so far.
    std::int64_t epoch_ = 0, step_ = 0;  // 1-based epoch, 0-based step in it
    std::int64_t window_images_ = 0;     // since the last log point (the world's)
    std::int64_t window_rows_ = 0;       // of them, this rank's
    double window_wait_ = 0;
    Clock::time_point window_start_;
};

}  // namespace lf
