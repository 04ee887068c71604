#include "import/keras_weights.h"

#include <algorithm>

#include "layerforge/core/error.h"
#include "layerforge/graph/model.h"

namespace lf::keras {

namespace {

std::string dims_text(const std::vector<std::int64_t>& dims) {
    std::string s = "(";
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
    return s + (dims.size() == 1 ? ",)" : ")");
}

std::string short_name(const WeightRef& r) { return r.name.substr(r.name.rfind('/') + 1); }

// The neutral value of a weight Keras leaves out (BatchNormalization center/scale off).
float neutral_value(const std::string& weight) { return weight == "gamma" ? 1.0f : 0.0f; }

}  // namespace

void assign_weights(const KerasModelConfig& config, const LayerTensors& tensors, const std::string& origin,
                    ImportedModel& m) {
    Model model = [&] {
        try {
            return Model::shapes_only(config.graph);
        } catch (const Error& e) {
            throw input_error(origin + ": " + e.what());
        }
    }();
    for (const KerasLayerRecord& layer : config.layers) {
        std::vector<const WeightRef*> wanted;
        for (const WeightRef* r : model.weights_of(layer.node)) {
            const std::string w = short_name(*r);
            if (std::find(layer.absent_weights.begin(), layer.absent_weights.end(), w) == layer.absent_weights.end())
                wanted.push_back(r);
            else
                m.weights[r->name] = {std::vector<std::int64_t>(r->shape.dims.begin(), r->shape.dims.end()),
                                      std::vector<float>(r->size, neutral_value(w))};
        }
        std::vector<ImportedTensor> got = tensors(layer);
        const std::string what = origin + ": layer '" + layer.name + "' (" + layer.class_name + ")";
        if (got.size() != wanted.size()) {
            std::string names;
            for (const WeightRef* r : wanted) names += (names.empty() ? "" : ", ") + short_name(*r);
            throw input_error(what + ": the file holds " + std::to_string(got.size()) + " weights, the layer has " +
                              std::to_string(wanted.size()) + (names.empty() ? "" : " (" + names + ")"));
        }
        for (std::size_t i = 0; i < wanted.size(); ++i) {
            const std::vector<std::int64_t> shape(wanted[i]->shape.dims.begin(), wanted[i]->shape.dims.end());
            if (got[i].shape != shape)
                throw input_error(what + ": weight " + std::to_string(i) + " (" + short_name(*wanted[i]) + ") is " +
                                  dims_text(got[i].shape) + " in the file, " + dims_text(shape) + " in the model");
            m.weights[wanted[i]->name] = std::move(got[i]);
        }
    }
}

}  // namespace lf::keras
