// layerforge-cli evaluate PROJECT: loss and metrics of the trained weights on the test split.
#include <filesystem>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/data/binding.h"
#include "layerforge/store/weights_file.h"
#include "layerforge/train/inference.h"
#include "progress.h"

namespace lf::cli {

namespace {

int run_evaluate(const Args& args, const Reporter& out) {
    Project p = open_project(args);
    const std::string device = device_option(args);  // before any file is read
    apply_dataset_options(args, p);
    if (auto precision = precision_option(args)) p.training.precision = *precision;
    apply_gpu_memory_option(args, p);
    const std::string& path = args.positional()[0];
    Model model(p.graph);
    std::string weights;
    if (auto spec = args.value("checkpoint")) {
        auto store = open_store(path);
        CheckpointInfo c = load_checkpoint_weights(*store, *spec, run_option(args), model);
        weights = store->path() + " " + c.name() + " (id " + std::to_string(c.id) + ")";
    } else {
        weights = trained_weights_path(args, path);
        load_weights(model, weights);
    }
    Inference inference(model, p.training, device);
    p.dataset.validation = "none";
    std::unique_ptr<BoundSources> data = bind_data(p, path, out);
    if (!data->test) throw input_error(p.dataset.path + ": no test split; add a test/ folder beside train/");
    EvalResult r = inference.evaluate(*data->test);
    report_pipeline_problems(*data, out);
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
                   kPrecisionOption,
                   kDeviceOption,
                   kGpuMemoryOption,
                   kJsonOption}};
    for (auto& o : data_options()) s.options.push_back(o);
    for (auto& o : dataset_options()) s.options.push_back(o);
    return {s, run_evaluate};
}

}  // namespace lf::cli
