// layerforge-cli train PROJECT: fits the project's model on its dataset, evaluates on the
// test split and saves the weights beside the project.
#include <filesystem>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/data/binding.h"
#include "layerforge/store/weights_file.h"
#include "progress.h"

namespace lf::cli {

namespace {

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
    const bool overridden = apply_dataset_options(args, p);
    Model model(p.graph);
    model.init_weights(std::uint64_t(p.training.seed));
    Trainer trainer(model, p.training);
    ProgressPrinter printer(out);
    trainer.add_observer(&printer);
    trainer.set_log_every(args.integer("log-every").value_or(100));

    std::unique_ptr<BoundSources> data = bind_data(p, path, out);
    if (p.dataset.kind == "image-folder" && p.dataset.classes.empty() && !overridden) {
        p.dataset.classes = data->class_names;  // fixes the label ids for later runs and predict
        save_project(p, path);
        out.line("saved the class list in " + path);
    }
    FitResult fit = trainer.fit(*data->train, data->validation.get());
    report_pipeline_problems(*data, out);
    if (fit.status == "failed") {
        out.object({{"event", "result"}, {"status", fit.status}, {"message", fit.message}});
        throw runtime_error(fit.message);
    }
    EvalResult test;
    if (data->test) test = trainer.evaluate(*data->test);
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
    out.object({{"event", "result"}, {"status", fit.status}, {"message", fit.message}, {"epochs_run", fit.epochs_run},
                {"steps", fit.steps}, {"test", metrics_json(test.metrics)}, {"test_samples", test.samples},
                {"history", history}, {"weights", weights}});
    return 0;
}

}  // namespace

Command train_command() {
    CommandSpec s{"train", "train PROJECT [options]",
                  "Trains the project's model on its dataset, printing progress per N steps and per epoch,\n"
                  "then evaluates on the test split and saves the weights (safetensors) beside the project.",
                  {{"epochs", "N", "override training.epochs"},
                   {"learning-rate", "X", "override the optimizer's learning_rate"},
                   {"log-every", "N", "progress line every N steps (default 100)"},
                   {"weights-out", "PATH", "where to save the weights (default PROJECT.weights.safetensors)"},
                   kJsonOption}};
    for (auto& o : data_options()) s.options.push_back(o);
    for (auto& o : dataset_options()) s.options.push_back(o);
    return {s, run_train};
}

}  // namespace lf::cli
