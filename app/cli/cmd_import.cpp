// layerforge-cli import MODEL --out DIR/NAME.lfproj: a pretrained network (ONNX; whatever
// model_formats() reads) becomes a project and its weights file, with the conversion report.
#include <filesystem>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/import/import.h"
#include "layerforge/run/session.h"  // default_weights_path

namespace lf::cli {

namespace {

std::string normalization_advice(const std::string& n) {
    if (n == "imagenet") return "ImageNet mean/std (torchvision)";
    if (n == "unit") return "[0, 1]";
    if (n == "symmetric") return "[-1, 1]";
    return "not given by the file; torchvision models expect ImageNet mean/std, Keras MobileNetV2 [-1, 1]";
}

int run_import(const Args& args, const Reporter& out) {
    const std::string& model_path = args.require(0, "MODEL");
    const auto project = args.value("out");
    if (!project || std::filesystem::path(*project).extension() != ".lfproj")
        throw input_error("give --out DIR/NAME.lfproj, the project to create");
    const std::string weights = default_weights_path(*project);
    // As export: existing files are kept unless --force.
    for (const std::string& f : {*project, weights})
        if (std::filesystem::exists(f) && !args.flag("force"))
            throw input_error(f + " exists; use --force to overwrite (nothing was written)");
    ImportedModel m = import_model_file(model_path);
    write_imported_project(m, *project);
    Model model(m.graph);
    out.line("imported " + model_path + " (" + m.source + "): " + std::to_string(m.graph.nodes.size()) + " layers, " +
             std::to_string(model.weights().size()) + " parameters");
    for (const std::string& c : m.conversions) out.line("  " + c);
    out.line("input normalisation: " + normalization_advice(m.normalization));
    out.line("wrote " + *project);
    out.line("wrote " + weights);
    out.object({{"event", "imported"},
                {"model", model_path},
                {"source", m.source},
                {"layers", m.graph.nodes.size()},
                {"parameters", model.weights().size()},
                {"conversions", m.conversions},
                {"normalization", m.normalization},
                {"files", {*project, weights}}});
    return 0;
}

}  // namespace

Command import_command() {
    CommandSpec s{"import", "import MODEL --out DIR/NAME.lfproj [--force] [--json]",
                  "Imports a pretrained network (.onnx) as a project: its layers on the canvas, channels last,\n"
                  "and its weights as the project's weights file, so evaluate, predict, export and train start\n"
                  "from them. Prints what was converted and the input normalisation to choose. Every node\n"
                  "that cannot be converted is named before anything is written; existing files are kept\n"
                  "unless --force.",
                  {{"out", "PATH", "the project to write (NAME.lfproj; NAME.weights.safetensors beside it)"},
                   {"force", "", "overwrite an existing project"},
                   kJsonOption}};
    return {s, run_import};
}

}  // namespace lf::cli
