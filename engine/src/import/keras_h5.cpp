// Legacy Keras HDF5 files (model.save("m.h5"), keras/src/legacy/saving/legacy_h5_format.py):
// the root attribute model_config (the model's JSON), the group model_weights whose attribute
// layer_names lists the layers, and per layer a group with the attribute weight_names (Keras 2:
// "conv2d/kernel:0") naming its datasets, relative to the layer's group, in layer.weights order.
// Attributes over HDF5's 64 KB header limit are split into name0, name1, ...
#include <algorithm>

#include "import/hdf5_reader.h"
#include "import/keras_weights.h"
#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/import/keras_file.h"

namespace lf {

namespace {

// An attribute Keras may have split into numbered chunks.
std::optional<std::vector<std::string>> chunked_strings(const h5::Reader& h5, const std::string& path,
                                                        const std::string& name) {
    if (auto whole = h5.strings(path, name)) return whole;
    std::optional<std::vector<std::string>> out;
    for (int i = 0;; ++i) {
        auto chunk = h5.strings(path, name + std::to_string(i));
        if (!chunk) return out;
        if (!out) out.emplace();
        out->insert(out->end(), chunk->begin(), chunk->end());
    }
}

std::vector<ImportedTensor> layer_weights(const h5::Reader& h5, const std::vector<std::string>& layer_names,
                                          const KerasLayerRecord& layer) {
    if (std::find(layer_names.begin(), layer_names.end(), layer.name) == layer_names.end()) return {};
    const std::string group = "model_weights/" + layer.name;
    const auto names = chunked_strings(h5, group, "weight_names");
    std::vector<ImportedTensor> out;
    if (!names) return out;
    for (const std::string& w : *names) out.push_back(h5.tensor(group + "/" + w));
    return out;
}

}  // namespace

ImportedModel read_keras_h5(const std::string& bytes, const std::string& origin) {
    const h5::Reader h5(bytes, origin);
    const auto config_text = h5.strings("/", "model_config");
    if (!config_text || config_text->size() != 1)
        throw input_error(origin + (h5.strings("/", "layer_names") || h5.strings("/", "layer_names0")
                                        ? ": holds only weights (save_weights); Layerforge needs the whole model, "
                                          "saved with model.save"
                                        : ": not a Keras model file (no model_config attribute)"));
    const auto layer_names = h5.is_group("model_weights") ? chunked_strings(h5, "model_weights", "layer_names") : std::nullopt;
    if (!layer_names) throw input_error(origin + ": no model_weights group with layer_names; the file holds no weights");
    ImportedModel m;
    const KerasModelConfig config = read_keras_model_config(config_text->front(), origin);
    for (const std::string& name : *layer_names) {
        const bool known = std::any_of(config.layers.begin(), config.layers.end(),
                                       [&](const KerasLayerRecord& l) { return l.name == name; });
        const auto weights = chunked_strings(h5, "model_weights/" + name, "weight_names");
        if (!known && weights && !weights->empty())
            throw input_error(origin + ": model_weights holds weights of layer '" + name + "', which the model config lacks");
    }
    keras::assign_weights(
        config, [&](const KerasLayerRecord& layer) { return layer_weights(h5, *layer_names, layer); }, origin, m);
    m.graph = config.graph;
    m.conversions = config.notes;
    const auto version = h5.strings("/", "keras_version");
    m.source = "Keras " + (version && version->size() == 1 ? version->front() + " " : std::string()) + ".h5";
    return m;
}

namespace keras {
ImportedModel read_h5_file(const std::string& path) {
    return read_keras_h5(ReadableFile(path, "Keras model", kMaxWeightsFileBytes).read_all(), path);
}
}  // namespace keras

}  // namespace lf
