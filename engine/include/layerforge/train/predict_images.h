#pragma once
// Class probabilities for image files, decoded, resized and scaled as the project's dataset
// binding does for training: what `layerforge-cli predict` prints and what the studio shows
// for an image dropped on its window.
#include <cstdint>
#include <string>
#include <vector>

#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"

namespace lf {

struct FilePrediction {
    std::string file;
    std::string error;                  // empty on success; else why, starting with "FILE: "
    std::vector<float> probabilities;   // one per class; a single (sigmoid) unit gives two
    std::vector<std::int64_t> ranking;  // classes by falling probability, ties in class order
    std::vector<float> sample;          // the input as the model saw it, channels last
};

// One result per file, in order, all predicted in one batch. mean/std: the standardisation the
// weights were trained with (empty: scaled to [0, 1]). A file that cannot be read or decoded
// gets its `error`; settings that cannot predict at all (the Input's shape, the dataset's image
// options, the training configuration, an unknown device) throw lf::Error (Input).
std::vector<FilePrediction> predict_image_files(Model& model, const Project& project,
                                                const std::vector<std::string>& files,
                                                const std::vector<float>& mean, const std::vector<float>& std,
                                                const std::string& device = "cpu");

// `names` completed with "class N" up to `classes` names (at least two: one unit is binary).
std::vector<std::string> class_names_for(std::vector<std::string> names, std::int64_t classes);

}  // namespace lf
