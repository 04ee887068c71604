#pragma once
// A model's weights in the safetensors layout: an 8-byte little-endian header length, a JSON
// header {name: {dtype, shape, data_offsets}, "__metadata__": {...}}, then the raw float32 data.
// Names and shapes follow Keras ("dense/kernel", kernel (in, units)).
#include <map>
#include <string>

#include "layerforge/graph/model.h"

namespace lf {

std::string encode_weights(const Model& m, const std::map<std::string, std::string>& metadata = {});
// Loads every weight of the model; throws lf::Error (Input) naming the origin and the tensor
// when one is missing, has another shape or dtype, or the data is damaged.
void decode_weights(Model& m, const std::string& bytes, const std::string& origin);

void save_weights(const Model& m, const std::string& path, const std::map<std::string, std::string>& metadata = {});
void load_weights(Model& m, const std::string& path);
// The string map saved as "__metadata__" (empty when there is none).
std::map<std::string, std::string> read_weights_metadata(const std::string& path);

}  // namespace lf
