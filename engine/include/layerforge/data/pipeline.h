#pragma once
// The image pipeline (tf.data's shuffle -> map -> batch -> prefetch, plus cache): an epoch's file
// order comes from a shuffle buffer; worker threads read, decode, resize and augment whole
// batches into a bounded ring of batch buffers; the trainer takes them in order. Everything
// random is seeded per (seed, epoch, position), so results do not depend on thread timing.
// A file that fails to decode is dropped from its batch, reported, and left out of later epochs;
// a file that is gone (the folder was deleted or unplugged) makes next() throw lf::Error (Runtime).
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "layerforge/data/batch_source.h"
#include "layerforge/data/scan.h"
#include "layerforge/data/transform.h"

namespace lf {

enum class CacheMode { None, Memory, File };

struct PipelineOptions {
    SampleSpec sample;                 // output size, channels, resize mode, normalisation
    std::int64_t batch_size = 32;
    bool drop_remainder = false;       // drop the last partial batch
    bool shuffle = false;
    std::int64_t shuffle_buffer = 0;   // 0: the whole dataset (a full shuffle per epoch)
    std::uint64_t seed = 0;
    bool augment = false;
    AugmentSpec augmentation;
    int workers = 0;                   // 0: from the hardware (see default_pipeline_workers)
    int prefetch = 0;                  // batches decoded ahead; 0: 2 per worker
    CacheMode cache = CacheMode::None; // keep decoded, resized samples so later epochs skip decoding
    std::string cache_file;            // CacheMode::File: where (e.g. under the project folder)
};

// Workers for a machine: one per core beyond the first (the trainer's), at least one.
int default_pipeline_workers();

// The order in which a shuffle buffer of `buffer` elements emits 0..n-1 (tf.data semantics:
// buffer 1 keeps the order; a buffer covering n gives a uniformly random permutation).
std::vector<std::int64_t> shuffle_order(std::int64_t n, std::int64_t buffer, std::uint64_t seed);

class ImagePipeline : public BatchSource {
public:
    ImagePipeline(std::vector<LabeledFile> files, std::vector<std::string> class_names, PipelineOptions options);
    ~ImagePipeline() override;
    ImagePipeline(const ImagePipeline&) = delete;
    ImagePipeline& operator=(const ImagePipeline&) = delete;

    Shape sample_shape() const override;
    std::int64_t size() const override;
    std::int64_t batch_size() const override { return opts_.batch_size; }
    std::int64_t steps_per_epoch() const override;
    const std::vector<std::string>& class_names() const override { return classes_; }
    void start_epoch(std::int64_t epoch) override;
    BatchView next() override;
    PipelineStats stats() const override;
    // Split: failed files stay in the order (each rank knows only its own failures, and the
    // ranks must shuffle the same list) and are skipped again from memory; the cache file is read
    // but not written, as no rank decodes every file.
    void set_shard(Shard shard) override;
    Shard shard() const override { return shard_; }

    std::vector<FileProblem> problems() const;  // files that failed to decode so far
    const PipelineOptions& options() const { return opts_; }
    // Per-channel mean and std of the (unaugmented) samples, for standardising. Runs one pass.
    void compute_mean_std(std::vector<float>& mean, std::vector<float>& std);
    void set_normalization(std::vector<float> mean, std::vector<float> std);

private:
    struct Slot {
        std::int64_t batch = -1;
        bool ready = false;
        std::int64_t count = 0;
        std::vector<float> images;
        std::vector<std::int32_t> labels;
    };
    void worker();
    void fill(Slot& slot, std::int64_t batch, std::int64_t epoch, Image& scratch);
    // From the cache or decoded; false (and recorded as a problem) when the file fails.
    bool load(std::int64_t file, Image& out, std::int64_t& decoded, std::int64_t& cached);
    void stop_epoch(std::unique_lock<std::mutex>& lock);  // waits for in-flight batches
    void load_cache_file();
    void save_cache_file();

    std::vector<LabeledFile> files_;
    std::vector<std::string> classes_;
    PipelineOptions opts_;
    Shard shard_;
    std::size_t sample_bytes_ = 0;

    // Per file: 0 unknown, 1 cached, 2 failed; written under mutex_ by the worker that owns the
    // file's batch. The cached bytes are read in later epochs (the epoch boundary orders them).
    std::vector<std::uint8_t> state_;
    std::vector<std::uint8_t> cache_;  // CacheMode != None: files x sample_bytes_
    bool cache_dirty_ = false;

    mutable std::mutex mutex_;
    std::condition_variable work_cv_, ready_cv_;
    std::vector<Slot> slots_;
    std::vector<std::int64_t> order_;   // this epoch's file indices
    std::int64_t epoch_ = 0, batches_ = 0, next_task_ = 0, consumed_ = 0, released_ = 0, in_flight_ = 0;
    bool quit_ = false;
    std::vector<FileProblem> problems_;
    std::string lost_;  // the first file found missing: every later next() throws it
    // stats for the current epoch
    std::int64_t decoded_ = 0, from_cache_ = 0, failed_ = 0, produced_ = 0;
    double wait_seconds_ = 0;
    std::chrono::steady_clock::time_point epoch_start_;
    std::vector<std::thread> threads_;
};

}  // namespace lf
