#pragma once
// Everything a training run needs, besides the weights and the optimizer's slot buffers, to
// continue as if it had never been interrupted (tf.train.Checkpoint's "save counter and
// friends"). The trainer hands one to its checkpoint sink and takes one back to resume.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "layerforge/train/loss_scale.h"
#include "layerforge/train/schedule.h"

namespace lf {

struct TrainState {
    std::int64_t epoch = 1;            // 1-based epoch that runs next (or is in progress)
    std::int64_t step_in_epoch = 0;    // steps of `epoch` already done
    std::int64_t iterations = 0;       // optimizer steps so far: the run's global step
    std::int64_t steps_per_epoch = 0;  // a resume must see the same data size and batch size
    std::string shuffle_rng;           // std::mt19937_64 state before `epoch` drew its permutation
    double loss_sum = 0;               // the running loss of `epoch` so far (sum over samples)
    std::int64_t seen = 0;             // samples of `epoch` so far
    double learning_rate = 0;          // the last step's rate (reported as "lr" at epoch end)
    double lr_scale = 1;               // ReduceLROnPlateau's multiplier
    std::vector<std::pair<std::string, std::vector<double>>> metric_states;  // per metric, in order
    std::optional<EarlyStopping::State> early_stopping;
    std::optional<ReduceLROnPlateau::State> reduce_lr;
    std::vector<float> best_weights;   // EarlyStopping(restore_best_weights) keeps these; often empty
    std::optional<LossScale::State> loss_scale;  // mixed_float16 runs
};

// When the trainer offers a checkpoint. Steps count globally (optimizer iterations), so a
// resumed run keeps the numbering of the uninterrupted one.
struct CheckpointPolicy {
    std::int64_t every_steps = 0;   // 0: not by steps
    std::int64_t every_epochs = 1;  // 0: not by epochs
    bool at_end = true;             // after the last epoch, an early stop or a stop request
};

class CheckpointSink {
public:
    virtual ~CheckpointSink() = default;
    // Called on the training thread between steps; the model's weights and the optimizer's
    // state() are those of `state`. Throwing stops the run cleanly with RunStatus::Failed.
    virtual void save(const TrainState& state, const std::vector<std::pair<std::string, double>>& metrics) = 0;
};

}  // namespace lf
