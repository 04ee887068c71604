#pragma once
// Puts the tensors a Keras file stores for each layer onto the imported graph's weight names,
// checking their count and shapes layer by layer.
#include <functional>
#include <string>
#include <vector>

#include "layerforge/import/import.h"
#include "layerforge/project/keras_import.h"

namespace lf::keras {

// The tensors one Keras layer stores, in the file's order.
using LayerTensors = std::function<std::vector<ImportedTensor>(const KerasLayerRecord& layer)>;

// Fills m.weights ("<node name>/<weight>") from `tensors` for every layer of `config`, in Keras'
// order (the engine's weight order, which is Keras'). Throws lf::Error (Input) naming `origin`
// and the layer when a count or a shape differs.
void assign_weights(const KerasModelConfig& config, const LayerTensors& tensors, const std::string& origin,
                    ImportedModel& m);

}  // namespace lf::keras
