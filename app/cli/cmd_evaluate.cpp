// layerforge-cli evaluate PROJECT: loss and metrics of the trained weights on the test split.
#include <filesystem>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/data/binding.h"
#include "layerforge/store/weights_file.h"
#include "progress.h"

namespace lf::cli {

namespace {

int run_evaluate(const Args& args, const Reporter& out) {
    Project p = open_project(args);
    const std::string& path = args.positional()[0];
    Model model(p.graph);
    std::string weights;
    if (auto spec = args.value("checkpoint")) {
        auto store = open_store(path);
        CheckpointInfo c = load_checkpoint_weights(*store, *spec, run_option(args), model);
        weights = store->path() + " " + c.name() + " (id " + std::to_string(c.id) + ")";
    } else {
        weights = args.value("weights").value_or(default_weights_path(path));
        if (!std::filesystem::exists(weights))
            throw input_error(weights + ": no trained weights; run `layerforge-cli train " + path +
                              "` first or pass --weights PATH");
        load_weights(model, weights);
    }
    Trainer trainer(model, p.training);
    DatasetBinding binding = p.dataset;
    binding.validation = "none";
    EvalResult r = trainer.evaluate(load_bound_data(binding, p.training.seed).test);
    out.line("test  " + metrics_text(r.metrics) + "  (" + std::to_string(r.samples) + " samples, weights " + weights + ")");
    out.object({{"event", "result"}, {"split", "test"}, {"samples", r.samples}, {"weights", weights},
                {"metrics", metrics_json(r.metrics)}});
    return 0;
}

}  // namespace

Command evaluate_command() {
    CommandSpec s{"evaluate", "evaluate PROJECT [options]",
                  "Reports the loss and metrics of the project's trained weights on the test split.",
                  {{"weights", "PATH", "weights to evaluate (default PROJECT.weights.safetensors)"},
                   {"checkpoint", "CHECKPOINT", "evaluate a checkpoint instead: id, ckpt-STEP, latest, best"},
                   {"run", "R", "look ckpt-STEP, latest or best up in run R"},
                   kJsonOption}};
    for (auto& o : data_options()) s.options.push_back(o);
    return {s, run_evaluate};
}

}  // namespace lf::cli
