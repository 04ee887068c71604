// layerforge-cli train PROJECT: fits the project's model on its dataset, recording the run,
// its metrics and checkpoints in NAME.lfruns; evaluates on the test split and saves the weights
// beside the project. --resume continues a recorded run from one of its checkpoints.
// The run itself is the engine's TrainingSession (train/session.h), which the studio runs too;
// this file turns options into SessionOptions and session events into lines or JSON objects.
#include <cstdio>

#include "command.h"
#include "mpi_job.h"
#include "layerforge/core/error.h"
#include "layerforge/run/session.h"
#include "progress.h"
#include "stop_signals.h"

namespace lf::cli {

namespace {

CheckpointPolicy checkpoint_policy(const Args& args) {
    CheckpointPolicy c;
    c.every_steps = args.integer("checkpoint-every").value_or(0);
    c.every_epochs = args.integer("checkpoint-epochs").value_or(1);
    if (c.every_steps < 0 || c.every_epochs < 0)
        throw input_error("options --checkpoint-every and --checkpoint-epochs must not be negative");
    return c;
}

SessionOptions session_options(const Args& args, const std::string& path, const Communicator* world) {
    SessionOptions o;
    o.project_path = path;
    o.checkpoints = checkpoint_policy(args);
    o.keep = args.integer("keep").value_or(5);
    if (o.keep < 1) throw input_error("option --keep must be at least 1");
    o.best_metric = args.value("best-metric").value_or("");
    o.best_mode = args.value("best-mode").value_or("auto");
    if (o.best_mode != "auto" && o.best_mode != "min" && o.best_mode != "max")
        throw input_error("option --best-mode must be min, max or auto");
    o.resume = args.value("resume");
    if (o.resume) o.resume_run = run_option(args);
    o.weights_path = args.value("weights-out").value_or("");
    const std::string init = args.value("init").value_or("weights");
    if (init != "weights" && init != "random") throw input_error("option --init must be weights or random");
    if (init == "random" && o.resume) throw input_error("--init random starts a new run; it cannot be used with --resume");
    o.init = init == "random" ? InitialWeights::Random : InitialWeights::ProjectFile;
    o.run_name = args.value("run-name").value_or("");
    o.notes = args.value("notes").value_or("");
    o.log_every = args.integer("log-every").value_or(100);
    o.precision = precision_option(args);  // the session checks it against a resumed run's
    o.device = device_option(args, world);
    if (auto dir = args.value("tensorboard")) {
        if (dir->empty()) throw input_error("option --tensorboard needs a folder (DIR)");
        o.tensorboard_dir = *dir;
    }
    return o;
}

// The session's events as the JSON objects of --json (its lines go to the text output).
class SessionPrinter : public SessionListener {
public:
    explicit SessionPrinter(const Reporter& out) : out_(out) {}
    void on_line(const std::string& text) override { out_.line(text); }
    void on_data_bound(const BoundSources& data) override { print_data_object(data, out_); }
    void on_run_created(std::int64_t run, const std::string& store) override {
        out_.object({{"event", "run"}, {"run", run}, {"store", store}});
    }
    void on_resumed(std::int64_t run, const CheckpointInfo& c) override {
        out_.object({{"event", "resume"}, {"run", run}, {"checkpoint", checkpoint_json(c)}});
    }
    void on_checkpoint(const CheckpointInfo& c) override {
        Json j = checkpoint_json(c);
        j["event"] = "checkpoint";
        out_.object(j);
    }
    void on_pipeline_problems(const std::vector<FileProblem>& problems) override {
        out_.object({{"event", "data_problems"}, {"skipped", problems_json(problems)}});
    }

private:
    const Reporter& out_;
};

int train(const Args& args, const Reporter& out, Communicator* world, bool& together) {
    Project p = open_project(args);
    const std::string& path = args.positional()[0];
    if (auto v = args.integer("epochs")) {
        if (*v < 1) throw input_error("option --epochs must be at least 1");
        p.training.epochs = *v;
    }
    if (auto v = args.number("learning-rate")) {
        if (!(*v > 0)) throw input_error("option --learning-rate must be positive");
        p.training.optimizer.params["learning_rate"] = *v;
    }
    if (auto v = args.integer("memory-limit")) {
        if (*v < 0) throw input_error("option --memory-limit must not be negative (0: no limit)");
        p.training.memory_limit_mb = *v;
    }
    apply_gpu_memory_option(args, p);
    SessionOptions options = session_options(args, path, world);
    options.communicator = world;
    options.fix_class_list = !apply_dataset_options(args, p);  // a --dataset folder is not the project's
    ProgressPrinter progress(out);
    options.observers.push_back(&progress);
    SessionPrinter printer(out);
    TrainingSession session(std::move(p), std::move(options), &printer);
    // SIGINT, SIGTERM, SIGUSR1: the run stops after its step and finishes up (checkpoint, test
    // pass, weights), as the studio's Stop. Under mpirun every rank gets the signal (mpirun
    // forwards SIGUSR1; SIGTERM is what it sends on its own SIGINT/SIGTERM); the ranks' requests
    // are summed with each step's loss, so all stop at the same step (train/data_parallel.h).
    // Installed until the command returns: a late signal only asks a finished session to stop.
    const bool leader = !world || world->rank() == 0;
    StopSignals signals([&](int sig) {
        if (leader) std::fprintf(stderr, "%s\n", stopping_line(sig).c_str());
        session.request_stop(/*finish_up=*/true);
    });
    SessionResult r = session.run();
    if (world) {  // every rank is done with the run (rank 0 has recorded it) before any leaves
        double done = 1;
        world->sum(&done, 1, {"the end of the run"});
        together = true;
    }

    if (r.fit.status == RunStatus::Failed) {
        out.object({{"event", "result"}, {"status", to_string(r.fit.status)}, {"message", r.fit.message}, {"run", r.run}});
        throw runtime_error(r.fit.message);
    }
    Json history = Json::array();
    for (const Metrics& m : r.fit.history) history.push_back(metrics_json(m));
    const EvalResult test = r.test.value_or(EvalResult{});
    out.object({{"event", "result"}, {"status", to_string(r.fit.status)}, {"message", r.fit.message}, {"run", r.run},
                {"epochs_run", r.fit.epochs_run}, {"steps", r.fit.steps}, {"test", metrics_json(test.metrics)},
                {"test_samples", test.samples}, {"history", history}, {"weights", r.weights_path}});
    if (r.fit.status == RunStatus::Stopped)
        out.line("run " + std::to_string(r.run) + " stopped; continue it with: layerforge-cli train " + path + " --resume");
    // Stopped: by a signal here, or on another rank of the job (only a signal stops a CLI run).
    return r.fit.status == RunStatus::Stopped ? kStoppedExitCode : 0;
}

int run_train(const Args& args, const Reporter& out) {
    return run_as_rank(args, [&](Communicator* world, bool& together) { return train(args, out, world, together); });
}

}  // namespace

Command train_command() {
    CommandSpec s{"train", "train PROJECT [options]",
                  "Trains the project's model on its dataset, printing progress per N steps and per epoch,\n"
                  "recording the run, its metrics and checkpoints in PROJECT.lfruns, then evaluates on the\n"
                  "test split and saves the weights (safetensors) beside the project. Ctrl-C, SIGTERM or SIGUSR1\n"
                  "stop the run after its step, with its checkpoint, test metrics and weights (exit code 3); a\n"
                  "second one quits at once.",
                  {{"epochs", "N", "override training.epochs"},
                   {"learning-rate", "X", "override the optimizer's learning_rate"},
                   {"log-every", "N", "progress line every N steps (default 100)"},
                   {"memory-limit", "MB", "refuse plans whose memory estimate exceeds MB (overrides training.memory_limit_mb; 0: none)"},
                   {"weights-out", "PATH", "where to save the weights (default PROJECT.weights.safetensors)"},
                   {"init", "FROM", "weights (default): start from the project's initial weights "
                                    "(training.initial_weights, an imported network's) where they have the model's "
                                    "weights, the rest random; random: from the seed only"},
                   {"resume", "[CHECKPOINT]", "continue the checkpoint's run: id, ckpt-STEP, latest (default), best"},
                   {"run", "R", "with --resume: look the checkpoint up in run R"},
                   {"checkpoint-every", "N", "checkpoint every N steps (default 0: off)"},
                   {"checkpoint-epochs", "N", "checkpoint every N epochs (default 1; 0: off); always at the end"},
                   {"keep", "N", "keep the newest N checkpoints of the run, plus the best and pinned (default 5)"},
                   {"best-metric", "NAME", "metric that picks the best checkpoint (default val_loss, or loss)"},
                   {"best-mode", "MODE", "min, max or auto (max for accuracies)"},
                   {"run-name", "NAME", "name of the new run (default: the project's name)"},
                   {"notes", "TEXT", "notes stored with the new run"},
                   kDistributedOption,
                   kRankTimeoutOption,
                   {"tensorboard", "DIR", "write TensorBoard event files live in DIR/<run name>-<run id> (train/ and "
                                          "validation/, as Keras does); view with tensorboard --logdir DIR"},
                   kPrecisionOption,
                   kDeviceOption,
                   kGpuMemoryOption,
                   kJsonOption}};
    for (auto& o : data_options()) s.options.push_back(o);
    for (auto& o : dataset_options()) s.options.push_back(o);
    return {s, run_train};
}

}  // namespace lf::cli
