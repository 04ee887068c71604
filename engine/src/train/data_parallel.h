#pragma once
// One rank's side of a data-parallel fit (the design of Horovod and PyTorch DDP): every rank
// holds the whole model, trains on its rows of each global batch, and the ranks' gradients are
// averaged before the identical update. The trainable part of the gradient buffer is cut into
// buckets of whole weights; a bucket's sum over the ranks starts as soon as backward() has
// finished its last weight, while the layers below it are still running.
//
// The mean over the global batch: each rank's gradient is its rows' mean, so a bucket is scaled
// by rows / global rows before the sum. The per-step totals (rows, loss, stop requests, metric
// states) travel in one small sum after backward; loss and metrics are then the world's on
// every rank, so every rank takes the same decisions (NaN, early stopping, checkpoints).
// Nothing here allocates per step once the first step of each plan has run.
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "layerforge/backend/backend.h"
#include "layerforge/core/communicator.h"
#include "layerforge/graph/model.h"
#include "layerforge/train/metrics.h"

namespace lf {

// [begin, end) of the gradient buffer, reduced as one.
struct GradientBucket {
    std::size_t begin = 0, end = 0;
};

// The trainable weights cut into buckets of at least `floats` floats (a weight is never split),
// from the highest offset down: the order in which backward usually finishes them.
std::vector<GradientBucket> make_buckets(const Model& model, std::size_t floats);

class DataParallel final : public BackwardListener {
public:
    static constexpr std::size_t kBucketFloats = std::size_t(1) << 20;  // 4 MiB, DDP's first bucket size

    // The gradients are summed where `device` keeps them (DeviceModel::gradient_exchange);
    // every rank constructs its DataParallel at once.
    DataParallel(Communicator& comm, DeviceModel& device, const std::vector<std::unique_ptr<Metric>>& metrics,
                 std::size_t bucket_floats = kBucketFloats);
    Communicator& comm() const { return comm_; }
    const std::vector<GradientBucket>& buckets() const { return buckets_; }

    // Makes every rank start from rank 0's weights (and optimizer state, through its blob).
    void broadcast_weights();
    // Rank 0's BatchNormalization moving statistics (the non-trainable weights) to every rank,
    // before an evaluation: they are the ones a data-parallel run keeps.
    void broadcast_moving_statistics();

    // The plan reports its steps here during backward() from now on; tables built once per plan.
    void attach(Plan& plan);
    // A step of `rows` of this rank's, out of `global_rows` in the batch (before failed files).
    void begin_step(const Plan& plan, std::int64_t rows, std::int64_t global_rows, std::int64_t step);
    // No rows here this step: zero gradients take part in the sums, in the order backward would.
    void skip_backward();
    void on_step_done(std::size_t step) override;

    struct Totals {
        std::int64_t rows = 0;  // over every rank
        double loss_sum = 0;    // loss x rows, summed
        bool stop = false;      // any rank asked to stop
    };
    // After backward: the world's totals (and metrics, in world_metrics()), and the mean gradient
    // of the global batch in the gradient buffer.
    Totals finish_step(double loss_sum, bool stop);
    // Every rank's metrics since their last reset, added up (valid after finish_step).
    const std::vector<std::unique_ptr<Metric>>& world_metrics() const { return world_; }
    // On resume only rank 0 keeps a checkpoint's running state, so the sums count it once.
    bool keeps_resumed_state() const { return comm_.rank() == 0; }

    // An evaluation's loss sum, sample count and metric states over every rank; `metrics` then
    // hold the world's states.
    void reduce_evaluation(double& loss_sum, std::int64_t& samples,
                           const std::vector<std::unique_ptr<Metric>>& metrics);
    // Each rank's images per second at a log point, indexed by rank.
    const std::vector<double>& throughput(double mine);

private:
    struct PlanTable {
        std::vector<std::size_t> first, buckets;  // step i's buckets: buckets[first[i] .. first[i + 1])
        std::vector<int> refs_in_bucket;          // weights per bucket
    };
    void start(std::size_t bucket);
    void pack_metrics(std::size_t at);
    void unpack_metrics(std::size_t at);

    Communicator& comm_;
    Model& model_;
    std::unique_ptr<GradientExchange> exchange_;
    const std::vector<std::unique_ptr<Metric>>& metrics_;
    std::vector<std::unique_ptr<Metric>> world_;
    std::vector<GradientBucket> buckets_;
    std::vector<std::size_t> order_;  // the order backward() finishes the buckets
    std::map<const Plan*, PlanTable> tables_;

    // The step in flight.
    const PlanTable* table_ = nullptr;
    std::vector<int> pending_;  // weights not yet final, per bucket
    std::vector<char> started_;
    float scale_ = 1;
    std::int64_t step_ = 0, rows_ = 0, global_rows_ = 0;

    std::vector<double> totals_;                // rows, loss sum, stop, then the metrics' states
    std::vector<std::vector<double>> states_;   // one metric's state, staged
    std::vector<double> rates_;
};

}  // namespace lf
