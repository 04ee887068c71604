// layerforge-cli predict PROJECT IMAGE...: class probabilities per image with the trained weights,
// through the same decode and resize as training.
#include <algorithm>
#include <filesystem>

#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/data/binding.h"
#include "layerforge/data/transform.h"
#include "layerforge/store/weights_file.h"
#include "layerforge/train/confusion.h"
#include "layerforge/train/inference.h"
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

    const Shape input = model.info(model.input_node()).layer.output;
    SampleSpec spec = sample_spec(p.dataset, input);
    spec.mean = json_floats(meta, "mean");
    spec.std = json_floats(meta, "std");
    TensorDataset batch;
    batch.sample_shape = input;
    std::vector<std::string> used;
    int failures = 0;
    for (std::size_t i = 1; i < args.positional().size(); ++i) {
        const std::string& file = args.positional()[i];
        try {
            const std::vector<std::uint8_t> bytes = read_file_bytes(file);
            const Image img = load_sample(bytes.data(), bytes.size(), spec);
            batch.images.resize(batch.images.size() + std::size_t(spec.elements()));
            sample_to_float(img, spec, nullptr, 0, batch.images.data() + batch.images.size() - std::size_t(spec.elements()));
            batch.labels.push_back(0);
            used.push_back(file);
        } catch (const Error& e) {
            ++failures;
            std::string why = e.what();
            if (why.rfind(file + ": ", 0) != 0) why = file + ": " + why;
            std::fprintf(stderr, "error: %s\n", why.c_str());
            out.object({{"event", "error"}, {"image", file}, {"message", why}});
        }
    }
    Inference inference(model, p.training);
    std::vector<float> probs = batch.size() ? inference.predict(batch) : std::vector<float>{};
    const std::int64_t width = batch.size() ? std::int64_t(probs.size()) / batch.size() : 0;
    const auto top_k = std::size_t(std::max<std::int64_t>(1, args.integer("top").value_or(3)));
    for (std::size_t i = 0; i < used.size(); ++i) {
        float* v = probs.data() + std::int64_t(i) * width;
        to_probabilities(v, width);
        std::vector<std::int64_t> order(static_cast<std::size_t>(width));
        for (std::int64_t k = 0; k < width; ++k) order[std::size_t(k)] = k;
        std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return v[a] > v[b]; });
        auto name = [&](std::int64_t k) { return std::size_t(k) < classes.size() ? classes[std::size_t(k)] : "class " + std::to_string(k); };
        std::string line = used[i] + ":";
        for (std::size_t k = 0; k < std::min(top_k, order.size()); ++k) {
            char buf[32];
            std::snprintf(buf, sizeof buf, " %.4f", v[order[k]]);
            line += "  " + name(order[k]) + buf;
        }
        out.line(line);
        Json probabilities = Json::object();
        for (std::int64_t k = 0; k < width; ++k) probabilities[name(k)] = v[k];
        out.object({{"event", "prediction"}, {"image", used[i]}, {"class", name(order[0])}, {"label", order[0]},
                    {"probabilities", probabilities}});
    }
    out.object({{"event", "result"}, {"images", used.size()}, {"failed", failures}});
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
