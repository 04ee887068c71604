#pragma once
// Model -> a tf.keras script (functional API, the tutorial's layers) and its weights as .npz.
// The script declares WEIGHT_SHAPES per layer and loads them with model.set_weights in
// model.layers order, so it does not depend on Keras' layer ordering.
#include <string>

#include "layerforge/export/export.h"

namespace lf::exporter {

struct KerasExport {
    std::string code;     // keras_model.py
    std::string weights;  // .npz, keys "dense/kernel"
};

KerasExport write_keras(const Model& m, const ExportMetadata& meta, const std::string& weights_file);

}  // namespace lf::exporter
