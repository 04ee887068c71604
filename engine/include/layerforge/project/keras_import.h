#pragma once
// Import of a tf.keras model config: the JSON that `model.to_json()` writes for Sequential and
// Functional models (Keras 2 and Keras 3 spellings), for the layers Layerforge supports.
// Throws lf::Error (Input) naming the origin and the layer that cannot be imported.
#include <string>

#include "layerforge/graph/graph.h"

namespace lf {

Graph import_keras_model(const std::string& json_text, const std::string& origin = "<memory>");
Graph import_keras_model_file(const std::string& path);

}  // namespace lf
