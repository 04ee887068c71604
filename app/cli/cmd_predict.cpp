// layerforge-cli predict PROJECT IMAGE...: class probabilities per image with the trained weights,
// through the same decode and resize as training. predict PROJECT BATCH.npy [--out Y.npy]: an
// (N, H, W, C) float32 batch fed to the Input as it is, the outputs written as (N, ...) float32.
#include <algorithm>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/core/npy.h"
#include "layerforge/store/weights_file.h"
#include "layerforge/train/inference.h"
#include "layerforge/train/predict_images.h"
#include "progress.h"

namespace lf::cli {

namespace {

std::vector<float> json_floats(const std::map<std::string, std::string>& meta, const char* key) {
    auto it = meta.find(key);
    return it == meta.end() ? std::vector<float>{} : Json::parse(it->second).get<std::vector<float>>();
}

bool is_npy(const std::string& path) { return path.size() > 4 && path.compare(path.size() - 4, 4, ".npy") == 0; }

// The batch as a dataset of unlabelled samples, checked against the model's Input.
TensorDataset npy_batch(const std::string& path, const Model& model) {
    NpyArray a = decode_npy(read_file(path, ".npy batch", kMaxWeightsFileBytes), path);
    const Shape input = model.info(model.input_node()).layer.output;
    if (a.shape.size() != input.rank() + 1 || !std::equal(input.dims.begin(), input.dims.end(), a.shape.begin() + 1)) {
        std::string dims;
        for (auto d : a.shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
        throw input_error(path + ": the batch has shape (" + dims + ") but the Input layer expects (N, " +
                          input.str().substr(4) + "; save an array of that shape");
    }
    TensorDataset d;
    d.sample_shape = input;
    d.images = std::move(a.data);
    d.labels.assign(std::size_t(a.shape[0]), 0);
    return d;
}

int predict_npy(const Args& args, const Reporter& out, const Project& p, Model& model,
                const std::vector<std::string>& classes, const std::string& device) {
    const std::string& batch_path = args.positional()[1];
    if (args.positional().size() != 2) throw input_error("give one .npy batch after the project, or image files");
    const TensorDataset batch = npy_batch(batch_path, model);
    Inference inference(model, p.training, device);
    const std::vector<float> y = inference.predict(batch);
    const Shape output = model.info(model.output_node()).layer.output;
    std::vector<std::int64_t> shape{batch.size()};
    shape.insert(shape.end(), output.dims.begin(), output.dims.end());
    if (auto path = args.value("out")) {
        write_file_atomic(*path, encode_npy(shape, y.data(), y.size()), "predictions");
        out.line(std::to_string(batch.size()) + " samples predicted; outputs written to " + *path);
        out.object({{"event", "result"}, {"samples", batch.size()}, {"out", *path}, {"shape", shape}});
        return 0;
    }
    const std::size_t width = std::size_t(output.elements());
    const std::vector<std::string> names = class_names_for(classes, std::int64_t(width));
    for (std::int64_t i = 0; i < batch.size(); ++i) {
        const float* row = y.data() + std::size_t(i) * width;
        const auto best = std::size_t(std::max_element(row, row + width) - row);
        char buf[32];
        std::snprintf(buf, sizeof buf, " %.4f", row[best]);
        out.line("sample " + std::to_string(i) + ": " + names[best] + buf);
        out.object({{"event", "prediction"}, {"sample", i}, {"class", names[best]}, {"label", best},
                    {"outputs", std::vector<float>(row, row + width)}});
    }
    out.object({{"event", "result"}, {"samples", batch.size()}});
    return 0;
}

int run_predict(const Args& args, const Reporter& out) {
    Project p = open_project(args);
    const std::string device = device_option(args);  // before any file is read
    if (auto precision = precision_option(args)) p.training.precision = *precision;
    apply_gpu_memory_option(args, p);
    const std::string& path = args.positional()[0];
    if (args.positional().size() < 2) throw input_error("give at least one IMAGE (or one .npy batch) after the project");
    Model model(p.graph);
    const std::string weights = trained_weights_path(args, path);
    load_weights(model, weights);
    const auto meta = read_weights_metadata(weights);
    std::vector<std::string> classes = p.dataset.classes;
    if (auto it = meta.find("classes"); it != meta.end()) classes = Json::parse(it->second).get<std::vector<std::string>>();
    if (is_npy(args.positional()[1])) return predict_npy(args, out, p, model, classes, device);
    if (args.value("out")) throw input_error("--out writes the outputs of a .npy batch; give one BATCH.npy");

    const std::vector<std::string> files(args.positional().begin() + 1, args.positional().end());
    const std::vector<FilePrediction> predictions =
        predict_image_files(model, p, files, json_floats(meta, "mean"), json_floats(meta, "std"), device);
    const auto top_k = std::size_t(std::max<std::int64_t>(1, args.integer("top").value_or(3)));
    int failures = 0;
    for (const FilePrediction& f : predictions) {
        if (!f.error.empty()) {
            ++failures;
            std::fprintf(stderr, "error: %s\n", f.error.c_str());
            out.object({{"event", "error"}, {"image", f.file}, {"message", f.error}});
        }
    }
    for (const FilePrediction& f : predictions) {
        if (!f.error.empty()) continue;
        const std::vector<std::string> names = class_names_for(classes, std::int64_t(f.probabilities.size()));
        std::string line = f.file + ":";
        for (std::size_t k = 0; k < std::min(top_k, f.ranking.size()); ++k) {
            char buf[32];
            std::snprintf(buf, sizeof buf, " %.4f", f.probabilities[std::size_t(f.ranking[k])]);
            line += "  " + names[std::size_t(f.ranking[k])] + buf;
        }
        out.line(line);
        Json probabilities = Json::object();
        for (std::size_t k = 0; k < f.probabilities.size(); ++k) probabilities[names[k]] = f.probabilities[k];
        out.object({{"event", "prediction"}, {"image", f.file}, {"class", names[std::size_t(f.ranking[0])]},
                    {"label", f.ranking[0]}, {"probabilities", probabilities}});
    }
    out.object({{"event", "result"}, {"images", files.size() - std::size_t(failures)}, {"failed", failures}});
    return failures ? 2 : 0;
}

}  // namespace

Command predict_command() {
    CommandSpec s{"predict", "predict PROJECT IMAGE... | BATCH.npy [options]",
                  "Prints class probabilities for each image, decoded and resized as in training,\n"
                  "with the project's trained weights. Unreadable images are reported (exit code 2).\n"
                  "A BATCH.npy, (N, height, width, channels) float32, goes to the Input as it is\n"
                  "(no resize, no normalisation); --out writes the model's outputs as a .npy.",
                  {{"weights", "PATH", "weights to use (default PROJECT.weights.safetensors)"},
                   {"out", "Y.npy", "with a .npy batch: write the outputs, (N, ...) float32, there"},
                   {"top", "N", "classes shown per image in text mode (default 3)"},
                   kPrecisionOption,
                   kDeviceOption,
                   kGpuMemoryOption,
                   kJsonOption}};
    return {s, run_predict};
}

}  // namespace lf::cli
