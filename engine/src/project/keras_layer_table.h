#pragma once
// One Keras layer config (Keras 2 or Keras 3 spelling) -> one Layerforge layer type and its
// parameters. The one table of Keras class names the importer understands.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "layerforge/core/params.h"

namespace lf::keras {

struct ConvertedLayer {
    std::string type;  // Layerforge registry name
    Params params;
    // Engine weights the Keras layer does not store (BatchNormalization with center or scale
    // off): the import fills them with their neutral value.
    std::vector<std::string> absent_weights;
    std::int64_t channel_axis = -1;  // BatchNormalization's axis as Keras counts it (batch = 0)
};

// Throws lf::Error (Input) "layer 'NAME': ..." for a class or a field value Layerforge cannot
// express. Ignored fields that change nothing Layerforge computes (regularizers, constraints)
// are appended to `notes`.
ConvertedLayer convert_layer(const std::string& class_name, const nlohmann::json& config, const std::string& name,
                             std::vector<std::string>& notes);

// Keras' own activation name for a config value (a string, or Keras 3's serialized function).
std::string activation_name(const nlohmann::json& value);

}  // namespace lf::keras
