#pragma once
// Evaluation and prediction with a model's current weights, and nothing of training: the loss,
// the metrics and inference plans of a run's configuration, but no optimizer, so no state is
// allocated for one (Adam's m and v are two more copies of the weights that a predict never
// reads). The CLI's predict / evaluate and the studio's evaluation use it; the Trainer runs
// its validation through the same loop.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "layerforge/train/trainer.h"  // EvalResult, TrainingConfig

namespace lf {

class PlanCache;

class Inference {
public:
    // Builds the configured loss and metrics; throws lf::Error (Input) naming the training
    // field that is wrong, or the unknown device. The optimizer, schedule and callbacks are not
    // read. evaluate and predict send the host model's weights to the device first.
    Inference(Model& model, const TrainingConfig& config, const std::string& device = "cpu");
    ~Inference();
    Inference(const Inference&) = delete;
    Inference& operator=(const Inference&) = delete;

    EvalResult evaluate(const TensorDataset& data);
    std::vector<float> predict(const TensorDataset& data);  // size() x output width
    // The same over batch sources (image pipelines), reading one epoch in order.
    EvalResult evaluate(BatchSource& data);
    std::vector<float> predict(BatchSource& data);

private:
    void check_source(const Shape& shape, std::size_t classes, const char* what) const;
    void check_dataset(const TensorDataset& d, const char* what) const;

    Model& model_;
    std::int64_t batch_size_;
    std::unique_ptr<Loss> loss_;
    std::vector<std::unique_ptr<Metric>> metrics_;
    std::unique_ptr<PlanCache> plans_;
};

}  // namespace lf
