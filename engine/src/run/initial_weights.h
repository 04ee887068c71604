#pragma once
// Where a new run's weights start. The rule: the project's initial weights (training.initial_weights,
// an imported network's) give every weight they hold under the model's name and shape; the rest
// keep the initialisers' values from the training seed. A resume starts from its checkpoint instead.
#include <string>

#include "layerforge/graph/model.h"

namespace lf {

// Loads into `model`, already initialised from the seed, the matching weights of the file at
// `path`; returns the line that says what the run starts from. A missing or damaged file throws
// lf::Error (Input) naming it.
std::string start_from_weights_file(Model& model, const std::string& path, std::int64_t seed);

// Where training.initial_weights of the project at `project_path` is: relative to its folder.
std::string initial_weights_path(const std::string& project_path, const std::string& initial_weights);

}  // namespace lf
