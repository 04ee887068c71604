#pragma once
// A training checkpoint as one safetensors blob: the weights by name ("dense/kernel"), the
// optimizer's slots under "optimizer/<slot>/" ("optimizer/m/dense/kernel"), EarlyStopping's best
// weights under "train/best_weights/", and in __metadata__ "layerforge_checkpoint" a JSON
// header: format version, step, epoch, graph hash, optimizer name and iterations, and the
// TrainState (schedule and callback state, running metrics, shuffle RNG state).
#include <string>
#include <vector>

#include "layerforge/graph/model.h"
#include "layerforge/train/optimizer.h"
#include "layerforge/train/train_state.h"

namespace lf {

// A hash of the weights' names and shapes: equal hashes restore into each other.
std::string graph_hash(const Model& m);

std::string encode_checkpoint(const Model& m, Optimizer& opt, const TrainState& s);

// Weights only (restore, evaluate). Refuses a checkpoint whose layers differ, listing every
// difference; with `partial` restores the weights that match by name and shape and returns the
// names of those left as they were.
std::vector<std::string> restore_checkpoint_weights(Model& m, const std::string& blob, const std::string& origin,
                                                    bool partial = false);

// Everything for a resume: weights, optimizer slots and iterations; returns the TrainState for
// Trainer::fit. Refuses any difference in layers or optimizer (lf::Error, Input).
TrainState restore_checkpoint(Model& m, Optimizer& opt, const std::string& blob, const std::string& origin);

}  // namespace lf
