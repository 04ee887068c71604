#pragma once
// Model -> a Keras 3 `.keras` file (keras.models.load_model reads it): config.json as
// serialize_keras_object writes a Functional model, metadata.json, and model.weights.h5 with
// each layer's variables under layers/<snake_case class>[_N]/vars/<i> (keras/src/saving/saving_lib.py).
#include <string>

#include "layerforge/graph/model.h"

namespace lf::exporter {

// Throws lf::Error (Input) naming a layer Keras 3 cannot express (GELU with approximate=True).
std::string write_keras_archive(const Model& m);

}  // namespace lf::exporter
