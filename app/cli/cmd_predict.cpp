// layerforge-cli predict PROJECT IMAGE...: class probabilities per image with the trained weights,
// through the same decode and resize as training.
#include <algorithm>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/store/weights_file.h"
#include "layerforge/train/predict_images.h"
#include "progress.h"

namespace lf::cli {

namespace {

std::vector<float> json_floats(const std::map<std::string, std::string>& meta, const char* key) {
    auto it = meta.find(key);
    return it == meta.end() ? std::vector<float>{} : Json::parse(it->second).get<std::vector<float>>();
}

int run_predict(const Args& args, const Reporter& out) {
    Project p = open_project(args);
    const std::string& path = args.positional()[0];
    if (args.positional().size() < 2) throw input_error("give at least one IMAGE after the project");
    Model model(p.graph);
    const std::string weights = trained_weights_path(args, path);
    load_weights(model, weights);
    const auto meta = read_weights_metadata(weights);
    std::vector<std::string> classes = p.dataset.classes;
    if (auto it = meta.find("classes"); it != meta.end()) classes = Json::parse(it->second).get<std::vector<std::string>>();

    const std::vector<std::string> files(args.positional().begin() + 1, args.positional().end());
    const std::vector<FilePrediction> predictions =
        predict_image_files(model, p, files, json_floats(meta, "mean"), json_floats(meta, "std"));
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
    CommandSpec s{"predict", "predict PROJECT IMAGE... [options]",
                  "Prints class probabilities for each image, decoded and resized as in training,\n"
                  "with the project's trained weights. Unreadable images are reported (exit code 2).",
                  {{"weights", "PATH", "weights to use (default PROJECT.weights.safetensors)"},
                   {"top", "N", "classes shown per image in text mode (default 3)"},
                   kJsonOption}};
    return {s, run_predict};
}

}  // namespace lf::cli
