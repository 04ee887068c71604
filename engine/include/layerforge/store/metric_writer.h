#pragma once
// Metric rows written off the training thread: push() only enqueues (blocking only when the
// bounded queue is full); a writer thread commits the rows in batches: to a run store (one
// transaction per batch), or to any other sink (TensorBoard event files).
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "layerforge/store/run_store.h"

namespace lf {

class MetricWriter {
public:
    using Sink = std::function<void(const std::vector<MetricRow>&)>;  // called on the writer thread; may throw

    explicit MetricWriter(RunStore& store, std::size_t capacity = 1 << 16, int flush_ms = 250);
    explicit MetricWriter(Sink sink, std::size_t capacity = 1 << 16, int flush_ms = 250);
    ~MetricWriter();  // commits what is queued, then stops the thread
    MetricWriter(const MetricWriter&) = delete;
    MetricWriter& operator=(const MetricWriter&) = delete;

    void push(MetricRow row);
    // Returns once every row pushed so far is committed; throws lf::Error (Runtime) with the
    // sink's failure (disk full, ...). Rows that failed to commit are dropped, never half-written.
    void flush();

private:
    void loop();

    Sink sink_;
    const std::size_t capacity_;
    const int flush_ms_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::vector<MetricRow> queue_;
    std::uint64_t pushed_ = 0, written_ = 0;  // rows
    bool flush_requested_ = false, stopping_ = false;
    std::string error_;
    std::thread thread_;
};

}  // namespace lf
