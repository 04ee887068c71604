// Trainer::fit: the checks of the data, then one FitLoop (train/fit_loop.h) runs the fit.
#include <optional>

#include "layerforge/core/error.h"
#include "layerforge/train/trainer.h"
#include "train/fit_loop.h"

namespace lf {

FitResult Trainer::fit(const TensorDataset& train, const TensorDataset* validation, const TrainState* resume) {
    check_dataset(train, "training");
    if (validation) check_dataset(*validation, "validation");
    if (train.size() == 0) throw input_error("the training data is empty");
    TensorSource train_source(train, config_.batch_size, config_.shuffle, std::uint64_t(config_.seed));
    std::optional<TensorSource> validation_source;
    if (validation) validation_source.emplace(*validation, config_.batch_size, false, 0);
    return fit(train_source, validation_source ? &*validation_source : nullptr, resume);
}

FitResult Trainer::fit(BatchSource& train, BatchSource* validation, const TrainState* resume) {
    check_source(train.sample_shape(), train.class_names().size(), "training");
    if (validation) check_source(validation->sample_shape(), validation->class_names().size(), "validation");
    if (train.size() == 0) throw input_error("the training data is empty");
    stop_ = false;  // requests from an earlier run do not carry over
    pause_ = false;
    make_callbacks();  // a second fit must not inherit the last run's best value, wait count or lr scale
    return FitLoop(*this, train, validation, resume).run();
}

}  // namespace lf
