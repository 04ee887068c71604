#pragma once
// What the training loop and inference do with a plan, each in one function, so that the
// plan's interface (a backend's, later) is met in one place: a batch goes in, the output is
// read by the metrics, and evaluation and prediction run one epoch of a source through it.
#include <cstddef>
#include <memory>
#include <vector>

#include "layerforge/data/batch_source.h"
#include "layerforge/train/trainer.h"

namespace lf {

class DataParallel;
class Loss;
class Metric;
class PlanCache;
struct BatchPart;
struct PlanSlot;

// Sends the batch to the plan for its size (and part of the global batch), built on first use,
// and returns that plan.
PlanSlot& feed(PlanCache& plans, const BatchView& batch, bool training);
PlanSlot& feed(PlanCache& plans, const BatchView& batch, bool training, const BatchPart& part);

// Adds the plan's output, as last downloaded into its HostLoss, for `labels` to every metric.
// No allocation.
void update_metrics(const std::vector<std::unique_ptr<Metric>>& metrics, const PlanSlot& slot,
                    const std::int32_t* labels, std::int64_t count);

// Loss and metrics over one epoch of `source`, in order, with the weights the device holds;
// the metrics are reset first. With `parallel`, each rank takes its part of the source, with
// rank 0's moving statistics, and the result (and the metrics' states) is the world's.
EvalResult evaluate_batches(BatchSource& source, PlanCache& plans, const Loss& loss,
                            const std::vector<std::unique_ptr<Metric>>& metrics, DataParallel* parallel = nullptr);
// The outputs over one epoch of `source`, in order: size() x output width.
std::vector<float> predict_batches(BatchSource& source, PlanCache& plans);

}  // namespace lf
