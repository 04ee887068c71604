#pragma once
// Turns a project's dataset binding into the train / validation / test data the trainer uses.
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "layerforge/data/batch_source.h"
#include "layerforge/data/dataset.h"
#include "layerforge/data/pipeline.h"
#include "layerforge/data/scan.h"
#include "layerforge/project/project.h"

namespace lf {

struct BoundData {
    TensorDataset train;
    std::optional<TensorDataset> validation;  // per-epoch validation data, if the binding asks for one
    TensorDataset test;
};

// Fashion-MNIST bindings only (in-memory tensors). validation "test": the test split; "split":
// validation_split of the training data, held out stratified by class with `seed`; "none": no
// validation. Throws lf::Error (Input).
BoundData load_bound_data(const DatasetBinding& binding, std::int64_t seed);
// Checks dataset.validation and dataset.validation_split; throws lf::Error (Input).
void check_validation_mode(const DatasetBinding& binding);

// Indices 0..labels.size()-1 split into (kept, held): `fraction` of every class (at least one
// sample where the class has two) is held out, chosen with `seed`. Both sorted. Deterministic.
std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> split_indices(const std::vector<std::int32_t>& labels,
                                                                               double fraction, std::uint64_t seed);
// Moves `fraction` of every class out of `data` into the returned set (split_indices).
TensorDataset split_stratified(TensorDataset& data, double fraction, std::uint64_t seed);

// The data of any binding as batch sources for Trainer::fit / evaluate.
struct BoundSources {
    std::unique_ptr<BatchSource> train, validation, test;  // validation and test may be null
    std::vector<std::string> class_names;
    std::vector<FileProblem> problems;  // image folders: files skipped by the scan
    std::vector<float> mean, std;       // normalize other than "scale": per channel, on [0, 1] values
    std::optional<FolderScan> scan;     // image folders
    BoundData tensors;                  // fashion-mnist: what the sources read (do not move this struct)
};

struct BindOptions {
    Shape input_shape;           // the model's Input (height, width, channels)
    std::int64_t batch_size = 32;
    bool shuffle = true;
    std::string cache_file;      // where "cache": "file" keeps decoded samples (beside the project)
};

std::unique_ptr<BoundSources> bind_sources(const DatasetBinding& binding, std::int64_t seed, const BindOptions& options);

// The per-sample spec of an image-folder binding for a model input (height, width, channels):
// resize mode, alpha handling. Throws lf::Error (Input) naming a bad dataset.image key.
SampleSpec sample_spec(const DatasetBinding& binding, const Shape& input_shape);

}  // namespace lf
