#pragma once
// The one table of what every layer type becomes in each export format. A layer (or an
// activation) missing here is reported by name before anything is written.
#include <string>
#include <vector>

#include "layerforge/export/export.h"

namespace lf::exporter {

struct LayerMapping {
    const char* type;         // registry name, e.g. "Conv2D"
    const char* keras_class;  // tf.keras.layers class the Keras script builds
    const char* onnx_ops;     // standard ONNX ops it lowers to (also what the PyTorch code does); null: none
};

const LayerMapping* find_mapping(const std::string& type);

// ONNX / PyTorch op for a Keras activation name ("relu" -> "Relu"); null when there is none.
const char* activation_op(const std::string& activation);

// Whether tf.keras' pooling layers express this MaxPool2D / AveragePooling2D (true for other
// types): Keras pads 'valid' or 'same' only, never rounds up, never counts the padding.
bool keras_pooling(const Params& p, const std::string& type);

// Layers of `m` the format cannot express, "name (Type)"; empty when everything maps.
std::vector<std::string> unmapped(const Model& m, ExportFormat format);
// Throws lf::Error (Input) naming every layer of `m` the format cannot express.
void require_mapped(const Model& m, ExportFormat format);

}  // namespace lf::exporter
