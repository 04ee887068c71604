// layerforge-cli export PROJECT --format F --out DIR: the trained weights (or a checkpoint's) as
// ONNX, safetensors, PyTorch code or tf.keras code, through the engine's export module.
#include <filesystem>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/export/export.h"
#include "layerforge/run/session.h"  // default_weights_path
#include "layerforge/store/weights_file.h"

namespace lf::cli {

namespace {

ExportOptions export_options(const Args& args) {
    ExportOptions o;
    const auto format = args.value("format");
    if (!format) throw input_error("give --format onnx|safetensors|pytorch|keras");
    o.format = parse_export_format(*format);
    o.opset = int(args.integer("opset").value_or(kMinOnnxOpset));
    const std::string layout = args.value("layout").value_or("nhwc");
    if (layout != "nhwc" && layout != "nchw") throw input_error("option --layout expects nhwc or nchw, got '" + layout + "'");
    o.layout = layout == "nhwc" ? InputLayout::NHWC : InputLayout::NCHW;
    o.fold_batchnorm = args.flag("fold-batchnorm");
    o.force = args.flag("force");
    if (auto dtype = args.value("dtype")) o.dtype = parse_export_dtype(*dtype);
    return o;
}

int run_export(const Args& args, const Reporter& out) {
    const std::string& path = args.require(0, "PROJECT");
    const auto dir = args.value("out");
    if (!dir) throw input_error("give --out DIR, the folder to write the export into");
    ExportOptions options = export_options(args);
    Project p = open_project(args);
    Model model(p.graph);
    // Class names and normalisation come from the trained weights file when there is one.
    const std::string weights = args.value("weights").value_or(default_weights_path(path));
    std::map<std::string, std::string> weights_meta;
    if (std::filesystem::exists(weights)) weights_meta = read_weights_metadata(weights);
    ExportMetadata meta = export_metadata(p.dataset, weights_meta);
    if (const auto spec = args.value("checkpoint")) {
        auto store = open_store(path);
        CheckpointInfo c = load_checkpoint_weights(*store, *spec, run_option(args), model);
        meta.source = "run " + std::to_string(c.run) + " " + c.name();
    } else {
        load_weights(model, trained_weights_path(args, path));
        meta.source = weights;
    }
    const auto written = export_model(model, meta, options, *dir);
    for (const auto& f : written) out.line("wrote " + f);
    out.object({{"event", "exported"}, {"format", to_string(options.format)}, {"dtype", to_string(options.dtype)},
                {"files", written}, {"source", meta.source},
                {"classes", meta.classes}});
    return 0;
}

}  // namespace

Command export_command() {
    CommandSpec s{"export", "export PROJECT --format onnx|safetensors|pytorch|keras --out DIR [options]",
                  "Exports the trained model. Weights: the project's weights file (default), --weights PATH,\n"
                  "or --checkpoint best|latest|ID|ckpt-STEP from the run store. Class names and input\n"
                  "normalisation travel with every format.\n"
                  "  onnx         DIR/model.onnx (opset 13-17, dynamic batch, checked with the ONNX checker)\n"
                  "  safetensors  DIR/model.safetensors (weights by layer name, graph JSON in __metadata__;\n"
                  "               float32, or bfloat16 with --dtype bfloat16)\n"
                  "  pytorch      DIR/model.py (nn.Module, NHWC input, load_model()) + model_state.safetensors\n"
                  "  keras        DIR/keras_model.py (tf.keras functional model, load_model()) + keras_weights.npz,\n"
                  "               and DIR/model.keras (Keras 3, keras.models.load_model)\n"
                  "A layer a format cannot express is named before anything is written; existing files\n"
                  "are kept unless --force.",
                  {{"format", "F", "onnx, safetensors, pytorch or keras"},
                   {"out", "DIR", "output folder (created when missing)"},
                   {"checkpoint", "C", "export a checkpoint: best[:METRIC[:min|max]], latest, ID or ckpt-STEP"},
                   {"run", "R", "with --checkpoint: look in run R only"},
                   {"weights", "PATH", "weights to export (default PROJECT.weights.safetensors)"},
                   {"opset", "N", "ONNX opset, 13 to 17 (default 13)"},
                   {"layout", "L", "ONNX image input/output layout: nhwc (default, as the studio) or nchw"},
                   {"fold-batchnorm", "", "fold BatchNormalization into the preceding Conv2D/Dense (ONNX, PyTorch)"},
                   {"dtype", "T", "safetensors weights: float32 (default) or bfloat16 (rounded to nearest even)"},
                   {"force", "", "overwrite existing files"},
                   kJsonOption}};
    return {s, run_export};
}

}  // namespace lf::cli
