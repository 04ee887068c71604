// layerforge-cli train PROJECT: fits the project's model on its dataset, recording the run,
// its metrics and checkpoints in NAME.lfruns; evaluates on the test split and saves the weights
// beside the project. --resume continues a recorded run from one of its checkpoints.
#include <filesystem>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/data/binding.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/run_recorder.h"
#include "layerforge/store/weights_file.h"
#include "progress.h"

namespace lf::cli {

namespace {

// What the run trained with, for `runs compare`: the graph and the training and data settings.
std::pair<std::string, std::string> snapshots(const Project& p) {
    Json doc = Json::parse(serialize_project(p));
    Json settings = {{"training", doc["training"]}, {"dataset", doc["dataset"]}};
    return {doc["model"].dump(), settings.dump()};
}

// Fashion-MNIST: a checksum of the training tensors; image folders: of the file list and labels.
std::string fingerprint(const BoundSources& data) {
    std::string bytes;
    if (data.scan) {
        for (const LabeledFile& f : data.scan->train) bytes += f.path + '\n' + std::to_string(f.label) + '\n';
    } else {
        const TensorDataset& d = data.tensors.train;
        bytes.assign(reinterpret_cast<const char*>(d.images.data()), d.images.size() * sizeof(float));
        bytes.append(reinterpret_cast<const char*>(d.labels.data()), d.labels.size() * sizeof(std::int32_t));
    }
    return std::to_string(data.train->size()) + " samples " + crc32_hex(bytes);
}

RetentionPolicy retention(const Args& args, bool has_validation) {
    RetentionPolicy r;
    r.max_to_keep = args.integer("keep").value_or(5);
    if (r.max_to_keep < 1) throw input_error("option --keep must be at least 1");
    r.best_metric = args.value("best-metric").value_or(has_validation ? "val_loss" : "loss");
    std::string mode = args.value("best-mode").value_or("auto");
    if (mode != "auto" && mode != "min" && mode != "max") throw input_error("option --best-mode must be min, max or auto");
    r.maximize = mode == "max" || (mode == "auto" && r.best_metric.find("acc") != std::string::npos);
    return r;
}

CheckpointPolicy checkpoint_policy(const Args& args) {
    CheckpointPolicy c;
    c.every_steps = args.integer("checkpoint-every").value_or(0);
    c.every_epochs = args.integer("checkpoint-epochs").value_or(1);
    if (c.every_steps < 0 || c.every_epochs < 0)
        throw input_error("options --checkpoint-every and --checkpoint-epochs must not be negative");
    return c;
}

std::string floats_text(const std::vector<float>& v) {
    Json j = Json::array();
    for (float x : v) j.push_back(x);
    return j.dump();
}

int run_train(const Args& args, const Reporter& out) {
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
    const CheckpointPolicy policy = checkpoint_policy(args);
    const bool overridden = apply_dataset_options(args, p);
    Model model(p.graph);
    model.init_weights(std::uint64_t(p.training.seed));
    Trainer trainer(model, p.training);
    ProgressPrinter printer(out);
    trainer.add_observer(&printer);
    trainer.set_log_every(args.integer("log-every").value_or(100));
    auto store = open_store(path, true);  // before the data: a store that cannot be written stops here

    std::unique_ptr<BoundSources> data = bind_data(p, path, out);
    if (p.dataset.kind == "image-folder" && p.dataset.classes.empty() && !overridden) {
        p.dataset.classes = data->class_names;  // fixes the label ids for later runs and predict
        save_project(p, path);
        out.line("saved the class list in " + path);
    }

    std::int64_t run_id = 0;
    std::optional<TrainState> resume;
    if (auto spec = args.value("resume")) {
        CheckpointInfo c = store->resolve(spec->empty() ? "latest" : *spec, run_option(args));
        resume = restore_checkpoint(model, trainer.optimizer(), store->checkpoint_blob(c.id),
                                    store->path() + " checkpoint " + std::to_string(c.id));
        run_id = c.run;
        store->delete_metrics_after(run_id, c.step);
        store->set_status(run_id, "running");
        out.line("resuming run " + std::to_string(run_id) + " from " + c.name() + " (id " + std::to_string(c.id) +
                 ", epoch " + std::to_string(c.epoch) + ")");
        out.object({{"event", "resume"}, {"run", run_id}, {"checkpoint", checkpoint_json(c)}});
    } else {
        auto [graph, settings] = snapshots(p);
        RunInfo r;
        r.name = args.value("run-name").value_or(p.name.empty() ? std::string("run") : p.name);
        r.graph = graph;
        r.settings = settings;
        r.dataset_fingerprint = fingerprint(*data);
        r.device = "cpu";
        r.notes = args.value("notes").value_or("");
        run_id = store->create_run(r);
        out.line("run " + std::to_string(run_id) + " recorded in " + store->path());
        out.object({{"event", "run"}, {"run", run_id}, {"store", store->path()}});
    }

    RunRecorder recorder(*store, run_id, model, trainer.optimizer(), retention(args, bool(data->validation)));
    recorder.on_saved = [&](const CheckpointInfo& c) {
        out.line("checkpoint " + c.name() + " saved (id " + std::to_string(c.id) + ")");
        Json j = checkpoint_json(c);
        j["event"] = "checkpoint";
        out.object(j);
    };
    trainer.add_observer(&recorder);
    trainer.set_checkpointing(policy, &recorder);
    FitResult fit = trainer.fit(*data->train, data->validation.get(), resume ? &*resume : nullptr);
    recorder.finish(fit.status);
    report_pipeline_problems(*data, out);
    if (fit.status == "failed") {
        out.object({{"event", "result"}, {"status", fit.status}, {"message", fit.message}, {"run", run_id}});
        throw runtime_error(fit.message);
    }
    EvalResult test;
    if (data->test) {
        test = trainer.evaluate(*data->test);
        std::vector<MetricRow> rows;
        for (const auto& [k, v] : test.metrics)
            rows.push_back({run_id, trainer.optimizer().iterations(), 0, "test", k, v, 0});
        store->append_metrics(rows);
    }
    std::string weights = args.value("weights-out").value_or(default_weights_path(path));
    std::map<std::string, std::string> meta = {{"format", "layerforge-weights"}, {"project", p.name},
                                               {"classes", Json(data->class_names).dump()}};
    if (!data->mean.empty()) meta["mean"] = floats_text(data->mean), meta["std"] = floats_text(data->std);
    save_weights(model, weights, meta);

    if (data->test)
        out.line("test  " + metrics_text(test.metrics) + "  (" + std::to_string(test.samples) + " samples)");
    else
        out.line("no test split (add a test/ folder beside train/ to get one)");
    out.line("weights saved to " + weights);
    Json history = Json::array();
    for (const Metrics& m : fit.history) history.push_back(metrics_json(m));
    out.object({{"event", "result"}, {"status", fit.status}, {"message", fit.message}, {"run", run_id},
                {"epochs_run", fit.epochs_run}, {"steps", fit.steps}, {"test", metrics_json(test.metrics)},
                {"test_samples", test.samples}, {"history", history}, {"weights", weights}});
    return 0;
}

}  // namespace

Command train_command() {
    CommandSpec s{"train", "train PROJECT [options]",
                  "Trains the project's model on its dataset, printing progress per N steps and per epoch,\n"
                  "recording the run, its metrics and checkpoints in PROJECT.lfruns, then evaluates on the\n"
                  "test split and saves the weights (safetensors) beside the project.",
                  {{"epochs", "N", "override training.epochs"},
                   {"learning-rate", "X", "override the optimizer's learning_rate"},
                   {"log-every", "N", "progress line every N steps (default 100)"},
                   {"weights-out", "PATH", "where to save the weights (default PROJECT.weights.safetensors)"},
                   {"resume", "[CHECKPOINT]", "continue the checkpoint's run: id, ckpt-STEP, latest (default), best"},
                   {"run", "R", "with --resume: look the checkpoint up in run R"},
                   {"checkpoint-every", "N", "checkpoint every N steps (default 0: off)"},
                   {"checkpoint-epochs", "N", "checkpoint every N epochs (default 1; 0: off); always at the end"},
                   {"keep", "N", "keep the newest N checkpoints of the run, plus the best and pinned (default 5)"},
                   {"best-metric", "NAME", "metric that picks the best checkpoint (default val_loss, or loss)"},
                   {"best-mode", "MODE", "min, max or auto (max for accuracies)"},
                   {"run-name", "NAME", "name of the new run (default: the project's name)"},
                   {"notes", "TEXT", "notes stored with the new run"},
                   kJsonOption}};
    for (auto& o : data_options()) s.options.push_back(o);
    for (auto& o : dataset_options()) s.options.push_back(o);
    return {s, run_train};
}

}  // namespace lf::cli
