#include "layerforge/sweep/sweep_runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <thread>

#include "layerforge/core/error.h"
#include "layerforge/core/communicator.h"

namespace lf {

namespace {

void check_name(const std::string& name) {
    const bool ok = !name.empty() && name.size() <= 64 &&
                    name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
                        std::string::npos &&
                    name[0] != '.';
    if (!ok) throw input_error("sweep name '" + name + "': use 1 to 64 letters, digits, '.', '_' or '-'");
}

bool done(const SweepTrial& t) { return t.status == "finished" || t.status == "pruned"; }

std::vector<double> curve_of(const SweepTrial& t) {
    std::vector<double> c;
    const nlohmann::json j = nlohmann::json::parse(t.curve, nullptr, false);
    if (j.is_array())
        for (const nlohmann::json& v : j)
            if (v.is_number()) c.push_back(v.get<double>());
    return c;
}

// Follows the trial's objective after each epoch; asks the session to stop when the median rule says so.
class TrialWatch : public TrainObserver {
public:
    TrialWatch(RunStore& store, std::int64_t sweep, SweepTrial& trial, const std::string& metric, bool maximize,
               const std::optional<MedianStop>& rule, std::vector<std::vector<double>> earlier)
        : store_(store), sweep_(sweep), trial_(trial), metric_(metric), maximize_(maximize), rule_(rule),
          earlier_(std::move(earlier)), curve_(curve_of(trial)) {}

    void attach(TrainingSession* s) { session_ = s; }
    bool pruned() const { return pruned_; }
    const std::vector<double>& curve() const { return curve_; }

    void on_event(const TrainEvent& e) override {
        if (e.kind != EventKind::EpochEnd) return;
        auto m = std::find_if(e.metrics.begin(), e.metrics.end(), [&](const auto& kv) { return kv.first == metric_; });
        if (m == e.metrics.end()) return;
        curve_.resize(std::size_t(std::max<std::int64_t>(e.epoch - 1, 0)));  // a resumed trial redoes later epochs
        curve_.push_back(m->second);
        trial_.curve = nlohmann::json(curve_).dump();
        store_.update_trial(sweep_, trial_);
        if (rule_ && !pruned_ && e.epoch < e.epochs && median_says_stop(earlier_, curve_, maximize_, *rule_)) {
            pruned_ = true;
            if (session_) session_->request_stop(true);
        }
    }

private:
    RunStore& store_;
    std::int64_t sweep_;
    SweepTrial& trial_;
    std::string metric_;
    bool maximize_;
    std::optional<MedianStop> rule_;
    std::vector<std::vector<double>> earlier_;
    std::vector<double> curve_;
    TrainingSession* session_ = nullptr;
    bool pruned_ = false;
};

// Passes the session's events on, and records the trial's run as soon as it exists.
class TrialEvents : public SessionListener {
public:
    TrialEvents(SessionListener& out, RunStore& store, std::int64_t sweep, SweepTrial& trial)
        : out_(out), store_(store), sweep_(sweep), trial_(trial) {}
    void on_line(const std::string& text) override { out_.on_line(text); }
    void on_data_bound(const BoundSources& d) override { out_.on_data_bound(d); }
    void on_run_created(std::int64_t run, const std::string& path) override {
        trial_.run = run;
        store_.update_trial(sweep_, trial_);
        out_.on_run_created(run, path);
    }
    void on_resumed(std::int64_t run, const CheckpointInfo& c) override { out_.on_resumed(run, c); }
    void on_checkpoint(const CheckpointInfo& c) override { out_.on_checkpoint(c); }
    void on_pipeline_problems(const std::vector<FileProblem>& p) override { out_.on_pipeline_problems(p); }

private:
    SessionListener& out_;
    RunStore& store_;
    std::int64_t sweep_;
    SweepTrial& trial_;
};

std::string store_path_of(const SessionOptions& o) {
    return o.store_path.empty() ? RunStore::path_for_project(o.project_path) : o.store_path;
}

// Where a trial's weights go: NAME.sweeps/SWEEP/trial-N.weights.safetensors beside the project,
// so no trial overwrites the project's own weights.
std::string trial_weights_path(const std::string& project_path, const std::string& sweep, std::int64_t trial) {
    const std::filesystem::path p(project_path);
    const std::filesystem::path dir = p.parent_path() / (p.stem().string() + ".sweeps") / sweep;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw input_error(dir.string() + ": cannot create the folder for the sweep's weights: " + ec.message());
    return (dir / ("trial-" + std::to_string(trial + 1) + ".weights.safetensors")).string();
}

SweepInfo open_sweep(RunStore& store, const Project& p, const std::vector<TrialSettings>& trials, const SweepOptions& o,
                     bool& continued) {
    std::vector<std::string> texts;
    for (const TrialSettings& t : trials) texts.push_back(t.dump());
    if (std::optional<SweepInfo> s = store.sweep(o.name)) {
        std::vector<std::string> stored;
        for (const SweepTrial& t : s->trials) stored.push_back(t.settings);
        if (!trials.empty() && stored != texts)
            throw input_error("sweep '" + o.name + "' already exists in " + store.path() + " with other trials (" +
                              std::to_string(stored.size()) + "); continue it with --resume " + o.name +
                              " or choose another --name");
        continued = true;
        return *s;
    }
    if (trials.empty()) throw input_error("no sweep named '" + o.name + "' in " + store.path());
    check_trials(p, trials);
    store.create_sweep(o.name, o.spec, texts);
    continued = false;
    return *store.sweep(o.name);
}

// The sweep's stop hook holds the trial's session while it trains (attach, then nullptr on
// the way out, also when the session throws).
class Attached {
public:
    Attached(SweepStop* stop, TrainingSession& session) : stop_(stop) {
        if (stop_) stop_->attach(&session);
    }
    ~Attached() {
        if (stop_) stop_->attach(nullptr);
    }
    Attached(const Attached&) = delete;
    Attached& operator=(const Attached&) = delete;

private:
    SweepStop* stop_;
};

bool stop_requested(const SweepOptions& o) { return o.stop && o.stop->requested(); }

}  // namespace

void SweepStop::request() {
    std::lock_guard lock(mutex_);
    requested_ = true;
    if (session_) session_->request_stop(/*finish_up=*/true);
}

void SweepStop::attach(TrainingSession* session) {
    std::lock_guard lock(mutex_);
    session_ = session;
    if (session_ && requested_) session_->request_stop(/*finish_up=*/true);
}

std::string default_objective(const Project& p) { return p.dataset.validation == "none" ? "loss" : "val_loss"; }

bool objective_maximized(const std::string& metric, const std::string& mode) {
    if (mode != "auto" && mode != "min" && mode != "max") throw input_error("the sweep's mode must be min, max or auto");
    return mode == "max" || (mode == "auto" && metric.find("acc") != std::string::npos);
}

std::optional<std::size_t> best_trial(const SweepInfo& s, bool maximize) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < s.trials.size(); ++i) {
        const double v = s.trials[i].objective;
        if (!std::isfinite(v)) continue;
        if (!best || (maximize ? v > s.trials[*best].objective : v < s.trials[*best].objective)) best = i;
    }
    return best;
}

SweepInfo run_sweep(const Project& p, const std::vector<TrialSettings>& trials, const SweepOptions& o,
                    SweepListener* listener) {
    check_name(o.name);
    const std::string metric = o.metric.empty() ? default_objective(p) : o.metric;
    const bool maximize = objective_maximized(metric, o.mode);
    SweepListener silent;
    SweepListener& out = listener ? *listener : silent;
    Communicator* const comm = o.communicator;
    const int rank = comm ? comm->rank() : 0, ranks = comm ? comm->size() : 1;
    std::unique_ptr<RunStore> store = std::make_unique<RunStore>(store_path_of(o.session), true);
    bool continued = false;
    std::optional<SweepInfo> opened;
    if (rank == 0) opened = open_sweep(*store, p, trials, o, continued);
    if (comm) {  // the others open the sweep rank 0 created (or checked)
        double created = 1;
        comm->sum(&created, 1, {"the creation of the sweep", -1, true});
        if (rank != 0) opened = open_sweep(*store, p, trials, o, continued);
    }
    SweepInfo sweep = std::move(*opened);
    out.on_sweep(sweep, continued);
    std::vector<std::int64_t> stopped_before;  // trials a stop left owed before this call
    for (const SweepTrial& t : sweep.trials)
        if (t.status == "stopped") stopped_before.push_back(t.index);

    for (SweepTrial& t : sweep.trials) {
        if (done(t) || t.index % ranks != rank) continue;
        if (stop_requested(o)) break;  // the trial in hand was stopped: start no other
        SessionOptions so = o.session;
        so.lock_store = !comm;
        // Trials count from 1 in run names, as the CLI lists them.
        so.run_name = (p.name.empty() ? std::string("run") : p.name) + " " + o.name + " #" + std::to_string(t.index + 1);
        so.tags.push_back("sweep:" + o.name);
        so.weights_path = trial_weights_path(o.session.project_path, o.name, t.index);
        so.write_project = false;  // the trial's settings are not the project's
        so.resume.reset();
        if (t.run && !store->checkpoints(t.run).empty()) {  // its process died: continue its run
            so.resume = "latest";
            so.resume_run = t.run;
        } else {
            t.run = 0;
            t.curve = "[]";
        }
        std::vector<std::vector<double>> earlier;  // as the store has them: other ranks finish trials too
        const SweepInfo stored = *store->sweep(o.name);
        for (const SweepTrial& e : stored.trials)
            if (done(e) && e.index != t.index) earlier.push_back(curve_of(e));
        t.status = "running";
        store->update_trial(sweep.id, t);
        out.on_trial_started(t, sweep.trials.size());

        TrialWatch watch(*store, sweep.id, t, metric, maximize, o.median_stop, std::move(earlier));
        so.observers.push_back(&watch);
        TrialEvents events(out, *store, sweep.id, t);
        std::string message;
        try {
            TrainingSession session(with_trial_settings(p, nlohmann::ordered_json::parse(t.settings)), std::move(so), &events);
            watch.attach(&session);
            const Attached attached(o.stop, session);
            const SessionResult r = session.run();
            message = r.fit.message;
            t.status = r.fit.status == RunStatus::Failed ? "failed"
                       : watch.pruned()                   ? "pruned"
                       : r.fit.status == RunStatus::Stopped ? "stopped"
                                                            : "finished";
            if (watch.pruned()) message = "stopped early: the median rule ranks it below the earlier trials";
            else if (t.status == "stopped") message += "; the sweep's --resume " + o.name + " continues it";
        } catch (const Error& e) {
            t.status = "failed";
            message = e.what();
        }
        const std::vector<double>& c = watch.curve();
        t.curve = nlohmann::json(c).dump();
        t.objective = c.empty() ? std::nan("")
                                : maximize ? *std::max_element(c.begin(), c.end()) : *std::min_element(c.begin(), c.end());
        if (t.status == "finished" && c.empty())
            message = "the run reported no " + metric + "; name the objective with --metric";
        store->update_trial(sweep.id, t);
        out.on_trial_ended(t, message);
    }
    // The other ranks' trials take as long as they take (no exchange timeout fits them): rank 0
    // watches the store until every trial is done. A rank that dies ends the job through mpirun.
    // A stop (mpirun forwards the signal to every rank) leaves trials owed: rank 0 then waits
    // until none is running, once it was asked to stop itself or sees a trial that another
    // rank's stop ended in this call (a rank that stopped starts no other trial).
    while (rank == 0 && ranks > 1) {
        const SweepInfo now = *store->sweep(o.name);
        const auto& ts = now.trials;
        if (std::all_of(ts.begin(), ts.end(), [](const SweepTrial& e) { return done(e) || e.status == "failed"; }))
            break;
        const bool running = std::any_of(ts.begin(), ts.end(), [](const SweepTrial& e) { return e.status == "running"; });
        const bool stopped_here = std::any_of(ts.begin(), ts.end(), [&](const SweepTrial& e) {
            return e.status == "stopped" &&
                   std::find(stopped_before.begin(), stopped_before.end(), e.index) == stopped_before.end();
        });
        if (!running && (stop_requested(o) || stopped_here)) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return *store->sweep(o.name);
}

}  // namespace lf
