#pragma once
// Runs a sweep's trials one after another (or on the ranks of an MPI job), each a normal training run of the project tagged
// "sweep:NAME", recording the sweep and every trial's result in the run store as it goes, so a
// sweep interrupted by a crash continues with the trials it still owes.
#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "layerforge/run/session.h"
#include "layerforge/sweep/sweep.h"

namespace lf {

// Stops a sweep from another thread (the CLI's stop signals): the trial that is training stops
// after its step and finishes up as a Stop does (its checkpoint, test metrics and weights), it is
// recorded "stopped", and no further trial starts on this process; `sweep --resume NAME`
// continues the stopped trial from its checkpoint and trains the rest.
class SweepStop {
public:
    void request();
    bool requested() const { return requested_; }
    // run_sweep's: the trial's session while it trains (nullptr: none). A request made before
    // reaches the session as soon as it is attached.
    void attach(TrainingSession* session);

private:
    std::mutex mutex_;
    TrainingSession* session_ = nullptr;
    std::atomic<bool> requested_{false};
};

struct SweepOptions {
    std::string name;         // letters, digits, '.', '_' and '-'
    std::string metric;       // the objective, as the epoch reports it: val_loss, val_accuracy, loss, ...
    std::string mode = "auto";  // min | max | auto (max for accuracies)
    std::optional<MedianStop> median_stop;
    std::string spec = "{}";  // JSON stored with a new sweep: how its trials were made
    SessionOptions session;   // every trial's; the sweep sets its run name, tags and weights path
    // Trials on the ranks of an MPI job instead of one after another: trial i trains on rank
    // i mod N, each a single-process run, all recording into the one store. Rank 0 creates the
    // sweep; run_sweep returns on rank 0 once every rank's trials are done.
    Communicator* communicator = nullptr;
    SweepStop* stop = nullptr;  // null: the sweep runs until its trials are done
};

// What happens around the trials, besides each trial's own session events.
class SweepListener : public SessionListener {
public:
    virtual void on_sweep(const SweepInfo& /*s*/, bool /*continued*/) {}
    virtual void on_trial_started(const SweepTrial& /*t*/, std::size_t /*trials*/) {}
    virtual void on_trial_ended(const SweepTrial& /*t*/, const std::string& /*message*/) {}
};

// The objective used when none is named: val_loss when the project validates, else loss.
std::string default_objective(const Project& p);
bool objective_maximized(const std::string& metric, const std::string& mode);  // throws for a bad mode

// Trains the trials not yet done. A new sweep takes `trials` (checked against the project first);
// a sweep of that name already in the store continues with its own, and `trials` must then be
// empty or the same. A trial left running by a dead process resumes from its run's latest
// checkpoint, or starts again without one. Returns the sweep as stored at the end.
// Throws lf::Error (Input) for a bad name or parameter, a sweep of that name with other trials.
SweepInfo run_sweep(const Project& p, const std::vector<TrialSettings>& trials, const SweepOptions& o,
                    SweepListener* listener = nullptr);

// The index of the best trial with an objective, or nullopt.
std::optional<std::size_t> best_trial(const SweepInfo& s, bool maximize);

}  // namespace lf
