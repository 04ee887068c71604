// layerforge-cli sweep PROJECT --grid P=V1,V2 ... | --random N P=log:LOW..HIGH ...: trains one
// run per trial, one after another (sweep/sweep_runner.h), then lists the trials, best first.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/sweep/sweep_runner.h"
#include "mpi_job.h"
#include "progress.h"
#include "stop_signals.h"

namespace lf::cli {

namespace {

std::string value_text(double v) {
    if (!std::isfinite(v)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

class SweepPrinter : public SweepListener {
public:
    SweepPrinter(const Reporter& out, std::string metric) : out_(out), metric_(std::move(metric)) {}
    void on_line(const std::string& text) override { out_.line("  " + text); }
    void on_sweep(const SweepInfo& s, bool continued) override {
        std::size_t owed = 0;
        for (const SweepTrial& t : s.trials) owed += t.status != "finished" && t.status != "pruned";
        out_.line((continued ? "continuing sweep " : "sweep ") + s.name + ": " + std::to_string(s.trials.size()) +
                  " trials, " + std::to_string(owed) + " to train, ranked by " + metric_);
        out_.object({{"event", "sweep"}, {"name", s.name}, {"trials", s.trials.size()}, {"to_train", owed},
                     {"continued", continued}, {"metric", metric_}});
    }
    void on_trial_started(const SweepTrial& t, std::size_t trials) override {
        out_.line("trial " + std::to_string(t.index + 1) + "/" + std::to_string(trials) + " " + t.settings +
                  (t.run ? " (continuing run " + std::to_string(t.run) + ")" : ""));
        out_.object({{"event", "trial"}, {"trial", t.index}, {"settings", Json::parse(t.settings)}});
    }
    void on_trial_ended(const SweepTrial& t, const std::string& message) override {
        out_.line("trial " + std::to_string(t.index + 1) + " " + t.status + ": " + metric_ + " " +
                  value_text(t.objective) + (t.run ? " (run " + std::to_string(t.run) + ")" : "") +
                  (message.empty() ? "" : "; " + message));
        out_.object({{"event", "trial_end"}, {"trial", t.index}, {"status", t.status}, {"run", t.run},
                     {"objective", std::isfinite(t.objective) ? Json(t.objective) : Json()}, {"message", message}});
    }

private:
    const Reporter& out_;
    std::string metric_;
};

std::vector<TrialSettings> expand(const Args& args, Json& spec) {
    std::vector<SweepParam> params;
    Json names = Json::array();
    for (std::size_t i = 1; i < args.positional().size(); ++i) {
        params.push_back(parse_sweep_param(args.positional()[i]));
        names.push_back(args.positional()[i]);
    }
    const std::optional<std::int64_t> random = args.integer("random");
    if (params.empty()) return {};
    if (args.flag("grid") == bool(random))
        throw input_error("choose one of --grid (every combination of the lists) and --random N (N draws)");
    const std::uint64_t seed = std::uint64_t(args.integer("sweep-seed").value_or(0));
    spec = {{"mode", random ? "random" : "grid"}, {"parameters", names}};
    if (random) {
        spec["trials"] = *random;
        spec["seed"] = seed;
        return random_trials(params, *random, seed);
    }
    return grid_trials(params);
}

int sweep(const Args& args, const Reporter& out, Communicator* world, bool& together) {
    Project p = open_project(args);
    const std::string& path = args.positional()[0];
    if (auto v = args.integer("epochs")) {
        if (*v < 1) throw input_error("option --epochs must be at least 1");
        p.training.epochs = *v;
    }
    apply_dataset_options(args, p);
    apply_gpu_memory_option(args, p);
    Json spec;
    const std::vector<TrialSettings> trials = expand(args, spec);
    const std::optional<std::string> resume = args.value("resume");
    if (trials.empty() && !resume)
        throw input_error("give the parameters to sweep (e.g. --grid learning_rate=1e-3,3e-4) or --resume NAME");

    SweepOptions o;
    o.session.project_path = path;
    o.session.log_every = args.integer("log-every").value_or(100);
    o.session.precision = precision_option(args);
    o.session.device = device_option(args, world);
    o.session.checkpoints.every_epochs = 1;
    o.session.keep = 1;
    o.metric = args.value("metric").value_or(default_objective(p));
    o.mode = args.value("mode").value_or("auto");
    o.spec = spec.dump();
    if (auto rule = args.value("early-stop")) {
        if (*rule != "median") throw input_error("option --early-stop: the rule is median (or leave it out)");
        o.median_stop = MedianStop{args.integer("warmup").value_or(1), 2};
    }
    if (resume) o.name = *resume;
    else if (auto name = args.value("name")) o.name = *name;
    else if (!world || world->rank() == 0) o.name = "sweep-" + std::to_string(open_store(path, true)->sweeps().size() + 1);
    if (world) world->broadcast(o.name, 0, {"the sweep's name", -1, true});  // rank 0's count of sweeps
    o.communicator = world;
    ProgressPrinter progress(out);
    o.session.observers.push_back(&progress);
    SweepPrinter printer(out, o.metric);
    // SIGINT, SIGTERM, SIGUSR1 (mpirun forwards it to every rank): the trial in hand stops after
    // its step with its checkpoint and weights, reads "stopped", and no other trial starts.
    SweepStop stop;
    o.stop = &stop;
    const bool leader = !world || world->rank() == 0;
    StopSignals signals([&](int sig) {
        if (leader) std::fprintf(stderr, "%s\n", stopping_line(sig).c_str());
        stop.request();
    });
    const SweepInfo s = run_sweep(p, trials, o, &printer);
    together = true;  // this rank's trials are recorded; rank 0 waited for every rank's
    const bool stopped = stop.requested() || std::any_of(s.trials.begin(), s.trials.end(), [](const SweepTrial& t) {
                             return t.status == "stopped";
                         });
    if (!leader) return stopped ? kStoppedExitCode : 0;  // rank 0 lists the trials and says how the sweep went

    const bool maximize = objective_maximized(o.metric, o.mode);
    const std::optional<std::size_t> best = best_trial(s, maximize);
    // Best first; trials without a value (failed, not run) last, in trial order.
    std::vector<const SweepTrial*> order;
    for (const SweepTrial& t : s.trials) order.push_back(&t);
    std::stable_sort(order.begin(), order.end(), [maximize](const SweepTrial* a, const SweepTrial* b) {
        const bool fa = std::isfinite(a->objective), fb = std::isfinite(b->objective);
        if (fa != fb) return fa;
        return fa && (maximize ? a->objective > b->objective : a->objective < b->objective);
    });
    char row[160];
    std::snprintf(row, sizeof row, "%6s  %-13s  %10s  %5s  settings", "trial", "status", o.metric.c_str(), "run");
    out.line(row);
    for (const SweepTrial* t : order) {
        std::snprintf(row, sizeof row, "%c%5lld  %-13s  %10s  %5s  ", best && *best == std::size_t(t->index) ? '*' : ' ',
                      static_cast<long long>(t->index + 1), t->status.c_str(), value_text(t->objective).c_str(),
                      t->run ? std::to_string(t->run).c_str() : "-");
        out.line(row + t->settings);
    }
    if (best) out.line("best: trial " + std::to_string(*best + 1) + " " + s.trials[*best].settings);
    Json rows = Json::array();
    for (const SweepTrial& t : s.trials)
        rows.push_back({{"trial", t.index}, {"status", t.status}, {"run", t.run}, {"settings", Json::parse(t.settings)},
                        {"objective", std::isfinite(t.objective) ? Json(t.objective) : Json()}});
    if (stopped)
        out.line("sweep " + s.name + " stopped; continue it with: layerforge-cli sweep " + path + " --resume " + s.name);
    out.object({{"event", "result"}, {"name", s.name}, {"trials", rows}, {"best", best ? Json(*best) : Json()},
                {"stopped", stopped}});
    if (stopped) return kStoppedExitCode;
    return best ? 0 : 1;
}

int run_sweep_command(const Args& args, const Reporter& out) {
    return run_as_rank(args, [&](Communicator* world, bool& together) { return sweep(args, out, world, together); });
}

}  // namespace

Command sweep_command() {
    CommandSpec s{"sweep", "sweep PROJECT (--grid | --random N) PARAM=VALUES... [options]",
                  "Trains one run of the project per trial, one after another, each tagged sweep:NAME, and lists\n"
                  "the trials best first. PARAM is learning_rate, batch_size, epochs, seed, optimizer, precision,\n"
                  "optimizer.NAME or LAYER.PARAM (dense1.units); VALUES a list (1e-3,3e-4) or, with --random, a\n"
                  "range: log:1e-4..1e-2, lin:0.1..0.5, int:32..256. A sweep stopped by a crash continues with\n"
                  "--resume NAME (or the same command and --name). Each trial's weights: PROJECT.sweeps/NAME/.\n"
                  "Ctrl-C, SIGTERM or SIGUSR1 stop the trial in hand after its step (its checkpoint and weights\n"
                  "saved; it reads stopped) and start no other (exit code 3); --resume NAME continues.",
                  {{"grid", "", "every combination of the lists"},
                   {"random", "N", "N trials drawn from the lists and ranges"},
                   {"sweep-seed", "S", "seed of the random draws (default 0)"},
                   {"name", "NAME", "the sweep's name (default sweep-N)"},
                   {"resume", "NAME", "continue the sweep NAME with the trials it still owes"},
                   {"metric", "M", "the objective (default val_loss, or loss without validation)"},
                   {"mode", "MODE", "min, max or auto (max for accuracies)"},
                   {"early-stop", "RULE", "median: stop a trial whose best so far is worse than the earlier "
                                          "trials' median at that epoch"},
                   {"warmup", "N", "epochs before the early-stop rule applies (default 1)"},
                   {"epochs", "N", "override training.epochs (a swept epochs wins)"},
                   {"log-every", "N", "progress line every N steps (default 100)"},
                   kPrecisionOption,
                   kDeviceOption,
                   kGpuMemoryOption,
                   kDistributedOption,
                   kRankTimeoutOption,
                   kJsonOption}};
    for (auto& o : data_options()) s.options.push_back(o);
    for (auto& o : dataset_options()) s.options.push_back(o);
    return {s, run_sweep_command};
}

}  // namespace lf::cli
