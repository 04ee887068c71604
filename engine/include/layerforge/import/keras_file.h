#pragma once
// The Keras model files, from their bytes (the readers model_formats() registers for ".keras"
// and ".h5" read the file and call these): the graph from the model config, the weights matched
// per layer in Keras' order (trainable first, then non-trainable). Throws lf::Error (Input)
// naming `origin` and the layer for a file that is not a Keras model or whose weights do not fit.
#include <string>

#include "layerforge/import/import.h"

namespace lf {

// Keras 3 `.keras`: a zip of config.json, metadata.json and model.weights.h5, whose layer
// variables are under layers/<snake_case class name, numbered>/vars/<0..n-1>.
ImportedModel read_keras_archive(const std::string& bytes, const std::string& origin);

// Legacy HDF5 `.h5` (model.save("m.h5")): the model_config attribute and the model_weights group
// with its layer_names / weight_names attributes.
ImportedModel read_keras_h5(const std::string& bytes, const std::string& origin);

}  // namespace lf
