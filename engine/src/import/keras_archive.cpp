// Keras 3 `.keras` files. Layout (keras/src/saving/saving_lib.py): a zip of config.json
// (serialize_keras_object(model)), metadata.json ({"keras_version", "date_saved"}) and
// model.weights.h5, where each layer of model.layers keeps its variables under
// layers/<name>/vars/<i>: <name> is the snake_case class name, numbered _1, _2, ... per class in
// model.layers order (not the layer's own name), and <i> runs over trainable then non-trainable
// variables. Keras 2.13-2.15 wrote "_layer_checkpoint_dependencies" for "layers".
#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "import/hdf5_reader.h"
#include "import/keras_weights.h"
#include "import/zip_reader.h"
#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/import/keras_file.h"

namespace lf {

namespace {

constexpr std::uint64_t kMaxWeightsEntry = 16ull << 30;

// Each layer's variables group, keyed by the layer's name.
std::map<std::string, std::string> variable_groups(const KerasModelConfig& config, const h5::Reader& h5) {
    std::map<std::string, int> seen;
    std::map<std::string, std::string> out;
    for (const KerasLayerRecord& layer : config.layers) {
        const std::string base = keras_snake_case(layer.class_name);
        const int n = seen[base]++;
        const std::string key = n == 0 ? base : base + "_" + std::to_string(n);
        for (const char* root : {"layers", "_layer_checkpoint_dependencies"})
            if (h5.is_group(std::string(root) + "/" + key + "/vars")) {
                out[layer.name] = std::string(root) + "/" + key + "/vars";
                break;
            }
    }
    return out;
}

std::vector<ImportedTensor> layer_variables(const h5::Reader& h5, const std::string& group) {
    std::vector<std::string> names = h5.children(group);
    for (std::size_t i = 0; i < names.size(); ++i)
        if (std::find(names.begin(), names.end(), std::to_string(i)) == names.end())
            throw input_error(h5.origin() + ": " + group + " holds '" + names[i] +
                              "', not Keras' numbered variables 0.." + std::to_string(names.size() - 1));
    std::vector<ImportedTensor> out;
    for (std::size_t i = 0; i < names.size(); ++i) out.push_back(h5.tensor(group + "/" + std::to_string(i)));
    return out;
}

std::string keras_version(const zipfile::Reader& zip) {
    if (!zip.has("metadata.json")) return "";
    const auto meta = nlohmann::json::parse(zip.read("metadata.json", kMaxProjectFileBytes), nullptr, false);
    return meta.is_object() && meta.contains("keras_version") && meta["keras_version"].is_string()
               ? meta["keras_version"].get<std::string>()
               : "";
}

}  // namespace

ImportedModel read_keras_archive(const std::string& bytes, const std::string& origin) {
    const zipfile::Reader zip(bytes, origin);
    if (!zip.has("config.json")) throw input_error(origin + ": not a Keras .keras file (no config.json in the archive)");
    if (!zip.has("model.weights.h5"))
        throw input_error(origin + ": no model.weights.h5 in the archive" +
                          (zip.has("model.weights.npz") ? std::string(" (npz weights are not supported; save with the "
                                                                      "default weights_format='h5')")
                                                        : std::string("; the file holds no weights")));
    ImportedModel m;
    const KerasModelConfig config = read_keras_model_config(zip.read("config.json", kMaxProjectFileBytes), origin);
    const std::string weights = zip.read("model.weights.h5", kMaxWeightsEntry);
    const h5::Reader h5(weights, origin + ": model.weights.h5");
    const auto groups = variable_groups(config, h5);
    keras::assign_weights(
        config,
        [&](const KerasLayerRecord& layer) {
            const auto it = groups.find(layer.name);
            return it == groups.end() ? std::vector<ImportedTensor>{} : layer_variables(h5, it->second);
        },
        origin, m);
    m.graph = config.graph;
    m.conversions = config.notes;
    const std::string version = keras_version(zip);
    m.source = "Keras " + (version.empty() ? std::string("3") : version) + " .keras";
    return m;
}

namespace keras {
ImportedModel read_archive_file(const std::string& path) {
    return read_keras_archive(ReadableFile(path, "Keras model", kMaxWeightsFileBytes).read_all(), path);
}
}  // namespace keras

}  // namespace lf
