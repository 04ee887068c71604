#pragma once
// The tutorial's custom layer, loss and metric chapter as a Layerforge plugin.
#include "layerforge/plugins/registrar.h"

namespace tutorial {

lf::PluginLayer linear_layer();                      // LinearLayer(units): y = x @ w + b
lf::LossSpec mean_squared_error_spec();              // TutorialMeanSquaredError
lf::MetricSpec sparse_categorical_accuracy_spec();   // SparseCategoricalAccuracy

}  // namespace tutorial
