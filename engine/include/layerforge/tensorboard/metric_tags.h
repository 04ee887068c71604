#pragma once
// How a run's metric rows and TensorBoard scalars map onto each other, with Keras' names so
// TensorBoard overlays training and validation as it does for a Keras run:
//   split "train" (per step)  -> part "train",      tag "batch_<name>"
//   split "epoch"             -> part "train",      tag "epoch_<name>"
//   split "val"               -> part "validation", tag "epoch_<name>"
//   split "test"              -> part "train",      tag "test_<name>"
// with "lr" named "learning_rate". Every scalar is logged at the run's optimizer step, epoch
// ends included (Keras logs epoch_* at the epoch's index instead; read back, both give the same
// epochs), so a resumed run's SessionLog START drops exactly what it redoes.
#include <cstdint>
#include <string>
#include <vector>

#include "layerforge/store/run_store.h"
#include "layerforge/tensorboard/log_folder.h"

namespace lf::tensorboard {

struct Slot {
    std::string part;  // sub-folder of the run folder
    std::string tag;
};

Slot slot_for(const std::string& split, const std::string& name);

// The run's metric rows from what a log folder holds for it. Tags of other tools keep their
// names (in split "train", or "val" under validation/). Epochs come from the epoch_* steps:
// the n-th distinct one ends epoch n, and a step belongs to the first epoch ending at or after it.
std::vector<MetricRow> rows_from_log(const LogRun& run, std::int64_t run_id);

}  // namespace lf::tensorboard
