#include "run/initial_weights.h"

#include <filesystem>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/store/weights_file.h"

namespace lf {

namespace {

std::string names_text(const std::vector<std::string>& names) {
    constexpr std::size_t kShown = 5;
    std::string s;
    for (std::size_t i = 0; i < names.size() && i < kShown; ++i) s += (i ? ", " : "") + names[i];
    if (names.size() > kShown) s += ", ... (" + std::to_string(names.size() - kShown) + " more)";
    return s;
}

}  // namespace

std::string start_from_weights_file(Model& model, const std::string& path, std::int64_t seed) {
    const std::string random = "starting from random weights (seed " + std::to_string(seed) + ")";
    const std::string origin = path + " (the project's initial weights, training.initial_weights; use --init random "
                                      "to start without them)";
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw Error(ErrorKind::Input, origin + ": no such file");
    const std::string bytes = read_file(path, "initial weights", kMaxWeightsFileBytes);
    const std::vector<std::string> skipped =
        copy_weights(model, parse_safetensors(bytes, origin), model.weights().data(), origin, true);
    const std::size_t total = model.weight_refs().size();
    if (skipped.size() == total) return random + "; " + path + " holds none of the model's weights";
    std::string line = "starting from the weights in " + path;
    if (!skipped.empty())
        line += "; " + std::to_string(skipped.size()) + " of " + std::to_string(total) +
                " weights are not in it (or have another shape) and start random: " + names_text(skipped);
    return line;
}

std::string initial_weights_path(const std::string& project_path, const std::string& initial_weights) {
    const std::filesystem::path p(initial_weights);
    if (p.is_absolute() || project_path.empty()) return initial_weights;
    return (std::filesystem::path(project_path).parent_path() / p).string();
}

}  // namespace lf
