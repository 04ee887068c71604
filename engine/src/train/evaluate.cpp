// Trainer::evaluate and Trainer::predict: the loops Inference runs (train/batch_runs.h), with the
// trainer's loss, metrics and plans, so validation shares the run's memory check. Both send the
// host model's weights to the device first; fit's validation runs on the device's own.
#include "layerforge/train/trainer.h"
#include "train/batch_runs.h"
#include "train/plan_cache.h"

namespace lf {

EvalResult Trainer::evaluate(const TensorDataset& data) {
    check_dataset(data, "evaluation");
    TensorSource source(data, config_.batch_size, false, 0);
    return evaluate(source);
}

EvalResult Trainer::evaluate(BatchSource& data) {
    check_source(data.sample_shape(), data.class_names().size(), "evaluation");
    plans_->device().push_weights();
    return evaluate_batches(data, *plans_, *loss_, metrics_, parallel_.get());
}

std::vector<float> Trainer::predict(const TensorDataset& data) {
    check_dataset(data, "prediction");
    TensorSource source(data, config_.batch_size, false, 0);
    return predict(source);
}

std::vector<float> Trainer::predict(BatchSource& data) {
    check_source(data.sample_shape(), data.class_names().size(), "prediction");
    plans_->device().push_weights();
    return predict_batches(data, *plans_);
}

}  // namespace lf
