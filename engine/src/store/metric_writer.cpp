#include "layerforge/store/metric_writer.h"

#include <chrono>

#include "layerforge/core/error.h"

namespace lf {

MetricWriter::MetricWriter(RunStore& store, std::size_t capacity, int flush_ms)
    : MetricWriter([&store](const std::vector<MetricRow>& rows) { store.append_metrics(rows); }, capacity, flush_ms) {}

MetricWriter::MetricWriter(Sink sink, std::size_t capacity, int flush_ms)
    : sink_(std::move(sink)), capacity_(capacity), flush_ms_(flush_ms) {
    queue_.reserve(capacity_);
    thread_ = std::thread([this] { loop(); });
}

MetricWriter::~MetricWriter() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void MetricWriter::push(MetricRow row) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return queue_.size() < capacity_ || stopping_; });
    queue_.push_back(std::move(row));
    ++pushed_;
    if (queue_.size() >= capacity_ / 2) wake_.notify_one();
}

void MetricWriter::flush() {
    std::unique_lock lock(mutex_);
    const std::uint64_t target = pushed_;
    flush_requested_ = true;
    wake_.notify_one();
    done_.wait(lock, [&] { return written_ >= target || !error_.empty(); });
    if (!error_.empty()) {
        std::string e = error_;
        error_.clear();
        throw runtime_error("metrics not saved: " + e);
    }
}

void MetricWriter::loop() {
    std::vector<MetricRow> batch;
    batch.reserve(capacity_);
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait_for(lock, std::chrono::milliseconds(flush_ms_),
                       [&] { return stopping_ || flush_requested_ || queue_.size() >= capacity_ / 2; });
        flush_requested_ = false;
        if (queue_.empty()) {
            done_.notify_all();
            if (stopping_) return;
            continue;
        }
        batch.swap(queue_);
        done_.notify_all();  // room in the queue again
        lock.unlock();
        std::string error;
        try {
            sink_(batch);
        } catch (const std::exception& e) {
            error = e.what();
        }
        const std::size_t n = batch.size();
        batch.clear();
        lock.lock();
        written_ += n;
        if (!error.empty()) error_ = error;
        done_.notify_all();
    }
}

}  // namespace lf
