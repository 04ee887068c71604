#pragma once
// Where the trainer gets its batches: in-memory tensors, or an image pipeline that decodes on
// worker threads. One epoch is start_epoch() followed by next() until it returns no samples.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "layerforge/core/shape.h"
#include "layerforge/data/dataset.h"

namespace lf {

struct BatchView {
    const float* images = nullptr;        // count x sample_shape, channels-last
    const std::int32_t* labels = nullptr; // count
    std::int64_t count = 0;               // 0: the epoch is over
};

// One process's part of every batch in a data-parallel run of `world` processes: rows
// [begin, end) of each global batch of `count` samples, so the ranks' parts are contiguous,
// disjoint, cover the batch and differ in size by at most one (the later ranks get the extra
// rows). A rank's part may be empty when the batch has fewer rows than there are ranks.
struct Shard {
    int rank = 0, world = 1;
    bool split() const { return world > 1; }
    std::int64_t begin(std::int64_t count) const { return count * rank / world; }
    std::int64_t end(std::int64_t count) const { return count * (rank + 1) / world; }
    std::int64_t size(std::int64_t count) const { return end(count) - begin(count); }
};

struct PipelineStats {
    std::int64_t queue_depth = 0, queue_capacity = 0;  // decoded batches waiting for the trainer
    double images_per_second = 0;   // decoded+transformed by the workers over the current epoch
    double wait_seconds = 0;        // the trainer's time blocked in next() this epoch
    std::int64_t decoded = 0, from_cache = 0, failed = 0;  // samples this epoch
    int workers = 0;
};

class BatchSource {
public:
    virtual ~BatchSource() = default;
    virtual Shape sample_shape() const = 0;
    virtual std::int64_t size() const = 0;        // samples per epoch (files known to fail excluded)
    virtual std::int64_t batch_size() const = 0;
    virtual std::int64_t steps_per_epoch() const = 0;
    virtual const std::vector<std::string>& class_names() const = 0;
    // epoch is 1-based; the shuffle order of an epoch depends only on the seed and the epoch.
    virtual void start_epoch(std::int64_t epoch) = 0;
    // Blocks until the next batch is ready. The view stays valid until the next call. Throws
    // lf::Error (Runtime) when the data went away (image files deleted while training).
    virtual BatchView next() = 0;
    virtual PipelineStats stats() const { return {}; }
    // The shuffle generator's state, which the next start_epoch() begins from, for checkpoints;
    // sources whose order depends only on (seed, epoch) have none. set_shuffle_state() throws
    // lf::Error (Input) for a damaged state.
    virtual std::string shuffle_state() const { return {}; }
    virtual void set_shuffle_state(const std::string& state) { (void)state; }
    // Data parallelism: next() then gives this rank's rows of each global batch. size(),
    // batch_size() and steps_per_epoch() stay the global ones, and every rank sees the same
    // batches in the same order. A split source yields exactly steps_per_epoch() views per
    // epoch, an empty one where its part of a batch is empty, so the ranks stay in step:
    // its consumers count steps instead of waiting for an empty view. Set before start_epoch.
    virtual void set_shard(Shard shard) = 0;
    virtual Shard shard() const = 0;
};

// Today's in-memory data: a full Fisher-Yates shuffle per epoch from one generator seeded once
// (as Trainer::fit always did), then a gather of each batch.
class TensorSource : public BatchSource {
public:
    TensorSource(const TensorDataset& data, std::int64_t batch_size, bool shuffle, std::uint64_t seed);
    Shape sample_shape() const override { return data_.sample_shape; }
    std::int64_t size() const override { return data_.size(); }
    std::int64_t batch_size() const override { return batch_; }
    std::int64_t steps_per_epoch() const override { return (data_.size() + batch_ - 1) / batch_; }
    const std::vector<std::string>& class_names() const override { return data_.class_names; }
    void start_epoch(std::int64_t epoch) override;
    BatchView next() override;
    std::string shuffle_state() const override;
    void set_shuffle_state(const std::string& state) override;
    void set_shard(Shard shard) override { shard_ = shard; }
    Shard shard() const override { return shard_; }

private:
    const TensorDataset& data_;
    Shard shard_;
    std::int64_t batch_;
    bool shuffle_;
    std::vector<std::int64_t> order_;
    std::vector<float> images_;
    std::vector<std::int32_t> labels_;
    std::int64_t pos_ = 0;
    std::mt19937_64 rng_;
};

}  // namespace lf
