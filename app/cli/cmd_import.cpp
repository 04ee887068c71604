// layerforge-cli import MODEL --out DIR/NAME.lfproj: a pretrained network (ONNX; whatever
// model_formats() reads) becomes a project and its weights file, with the conversion report.
#include <filesystem>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/import/import.h"

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
    const std::vector<std::string> files = imported_project_files(*project);
    // As export: existing files are kept unless --force.
    for (const std::string& f : files)
        if (std::filesystem::exists(f) && !args.flag("force"))
            throw input_error(f + " exists; use --force to overwrite (nothing was written)");
    ImportedModel m = import_model_file(model_path);
    write_imported_project(m, *project);
    const std::int64_t params = Model::shapes_only(m.graph).analysis().total_params;  // counted, not allocated again
    out.line("imported " + model_path + " (" + m.source + "): " + std::to_string(m.graph.nodes.size()) + " layers, " +
             std::to_string(params) + " parameters");
    for (const std::string& c : m.conversions) out.line("  " + c);
    out.line("input normalisation: " + normalization_advice(m.normalization));
    for (const std::string& f : files) out.line("wrote " + f);
    out.object({{"event", "imported"},
                {"model", model_path},
                {"source", m.source},
                {"layers", m.graph.nodes.size()},
                {"parameters", params},
                {"conversions", m.conversions},
                {"normalization", m.normalization},
                {"files", files}});
    return 0;
}

}  // namespace

Command import_command() {
    CommandSpec s{"import", "import MODEL --out DIR/NAME.lfproj [--force] [--json]",
                  "Imports a pretrained network (.onnx) as a project: its layers on the canvas, channels last,\n"
                  "and its weights as the project's weights file (evaluate, predict and export use them) and\n"
                  "as its initial weights (NAME.pretrained.safetensors: every new run starts from them). Prints what was converted and the input normalisation to choose. Every node\n"
                  "that cannot be converted is named before anything is written; existing files are kept\n"
                  "unless --force.",
                  {{"out", "PATH", "the project to write (NAME.lfproj; NAME.weights.safetensors and NAME.pretrained.safetensors beside it)"},
                   {"force", "", "overwrite an existing project"},
                   kJsonOption}};
    return {s, run_import};
}

}  // namespace lf::cli
