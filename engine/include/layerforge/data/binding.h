#pragma once
// Turns a project's dataset binding into the train / validation / test data the trainer uses.
#include <cstdint>
#include <optional>

#include "layerforge/data/dataset.h"
#include "layerforge/project/project.h"

namespace lf {

struct BoundData {
    TensorDataset train;
    std::optional<TensorDataset> validation;  // per-epoch validation data, if the binding asks for one
    TensorDataset test;
};

// validation "test": the test split; "split": validation_split of the training data, held out
// stratified by class with `seed`; "none": no validation. Throws lf::Error (Input).
BoundData load_bound_data(const DatasetBinding& binding, std::int64_t seed);

// Moves `fraction` of every class (at least one sample where the class has two) out of `data`
// into the returned set, choosing samples with `seed`. Deterministic.
TensorDataset split_stratified(TensorDataset& data, double fraction, std::uint64_t seed);

}  // namespace lf
