// layerforge-cli restore PROJECT CHECKPOINT: a checkpoint's weights become the project's weights.
#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/run/session.h"  // default_weights_path
#include "layerforge/store/weights_file.h"

namespace lf::cli {

namespace {

int run_restore(const Args& args, const Reporter& out) {
    Project p = open_project(args);
    const std::string& path = args.positional()[0];
    const std::string spec = args.require(1, "CHECKPOINT (id, ckpt-STEP, latest or best)");
    Model model(p.graph);
    model.init_weights(std::uint64_t(p.training.seed));  // what --partial leaves for the layers that differ
    auto store = open_store(path);
    std::vector<std::string> skipped;
    CheckpointInfo c = load_checkpoint_weights(*store, spec, run_option(args), model, args.flag("partial"), &skipped);
    std::string weights = args.value("weights-out").value_or(default_weights_path(path));
    save_weights(model, weights, {{"format", "layerforge-weights"}, {"project", p.name}, {"checkpoint", c.name()}});
    out.line("restored " + c.name() + " (id " + std::to_string(c.id) + ", run " + std::to_string(c.run) + ") into " +
             weights);
    for (const std::string& s : skipped) out.line("  not restored (differs): " + s);
    Json j = checkpoint_json(c);
    out.object({{"event", "restored"}, {"checkpoint", j}, {"weights", weights}, {"skipped", skipped}});
    return 0;
}

}  // namespace

Command restore_command() {
    CommandSpec s{"restore", "restore PROJECT CHECKPOINT [options]",
                  "Writes a checkpoint's weights to the project's weights file (PROJECT.weights.safetensors).\n"
                  "Refuses a checkpoint whose layers differ from the project's graph, naming them; --partial\n"
                  "restores the layers that still match by name and shape and initialises the others.",
                  {{"partial", "", "restore only the layers that match"},
                   {"run", "R", "look ckpt-STEP, latest or best up in run R"},
                   {"weights-out", "PATH", "where to write the weights (default PROJECT.weights.safetensors)"},
                   kJsonOption}};
    return {s, run_restore, false};
}

}  // namespace lf::cli
