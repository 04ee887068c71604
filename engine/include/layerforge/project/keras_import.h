#pragma once
// Import of a Keras model config: the JSON that `model.to_json()` writes and that a `.keras`
// file's config.json and an `.h5` file's model_config hold, for Sequential and Functional
// models (Keras 2 and Keras 3 spellings), for every layer Layerforge has.
// Throws lf::Error (Input) naming the origin and the layer that cannot be imported.
#include <string>
#include <vector>

#include "layerforge/graph/graph.h"

namespace lf {

// One Keras layer of the config, in config order.
struct KerasLayerRecord {
    std::string name;        // Keras' layer name
    std::string class_name;  // "Conv2D"
    std::string node;        // the node it became
    // Weights of the node's layer that the Keras layer does not store (BatchNormalization with
    // center or scale off); filled with their neutral value (beta 0, gamma 1) on import.
    std::vector<std::string> absent_weights;
};

struct KerasModelConfig {
    Graph graph;
    std::vector<KerasLayerRecord> layers;
    std::vector<std::string> notes;  // what was converted or ignored, one line each
};

KerasModelConfig read_keras_model_config(const std::string& json_text, const std::string& origin);

Graph import_keras_model(const std::string& json_text, const std::string& origin = "<memory>");

// Keras' naming.to_snake_case: "conv2d" for Conv2D, "re_lu" for ReLU. A .keras weights file keeps
// each layer's variables under layers/<snake_case class name>[_N]/vars.
std::string keras_snake_case(const std::string& class_name);
Graph import_keras_model_file(const std::string& path);

}  // namespace lf
