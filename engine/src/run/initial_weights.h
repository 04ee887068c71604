#pragma once
// Where a new run's weights start. The rule: the project's weights file (an imported model's, or
// the last run's) gives every weight it holds under the model's name and shape; the rest keep
// the initialisers' values from the training seed. A resume starts from its checkpoint instead.
#include <string>

#include "layerforge/graph/model.h"

namespace lf {

// Loads into `model`, already initialised from the seed, the matching weights of the file at
// `path`; returns the line that says what the run starts from. A missing file leaves the model
// as it is; a damaged one throws lf::Error (Input) naming it.
std::string start_from_weights_file(Model& model, const std::string& path, std::int64_t seed);

}  // namespace lf
