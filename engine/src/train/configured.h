#pragma once
// Prefixes a configuration error with the training field it came from ("training.loss: ...").
#include <memory>
#include <string>
#include <vector>

#include "layerforge/core/error.h"
#include "layerforge/project/project.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/metrics.h"

namespace lf::train_detail {

template <class F>
auto configured(const std::string& field, F&& make) {
    try {
        return make();
    } catch (const Error& e) {
        throw input_error("training." + field + ": " + e.what());
    }
}

// The loss and metrics a configuration names, for training and inference alike.
inline void make_loss_and_metrics(const TrainingConfig& config, std::unique_ptr<Loss>& loss,
                                  std::vector<std::unique_ptr<Metric>>& metrics) {
    loss = configured("loss", [&] { return make_loss(config.loss, config.loss_params); });
    for (const std::string& m : config.metrics) metrics.push_back(configured("metrics", [&] { return make_metric(m); }));
}

}  // namespace lf::train_detail
