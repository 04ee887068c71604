// ImagePipeline: worker threads fill a ring of batch buffers in epoch order; see pipeline.h.
#include "layerforge/data/pipeline.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

#include "layerforge/core/error.h"

namespace lf {

namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
    std::uint64_t z = a * 0x9e3779b97f4a7c15ULL + b + 0x632be59bd9b4e019ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

int default_pipeline_workers() {
    const int cores = int(std::thread::hardware_concurrency());
    return std::clamp(cores - 1, 1, 8);
}

std::vector<std::int64_t> shuffle_order(std::int64_t n, std::int64_t buffer, std::uint64_t seed) {
    if (buffer <= 0 || buffer > n) buffer = n;
    std::mt19937_64 rng(seed);
    std::vector<std::int64_t> out, pool;
    out.reserve(std::size_t(n));
    pool.reserve(std::size_t(buffer));
    std::int64_t next = 0;
    while (next < buffer) pool.push_back(next++);
    while (!pool.empty()) {
        const std::size_t k = std::size_t(rng() % pool.size());
        out.push_back(pool[k]);
        if (next < n) {
            pool[k] = next++;
        } else {
            pool[k] = pool.back();
            pool.pop_back();
        }
    }
    return out;
}

ImagePipeline::ImagePipeline(std::vector<LabeledFile> files, std::vector<std::string> class_names,
                             PipelineOptions options)
    : files_(std::move(files)), classes_(std::move(class_names)), opts_(std::move(options)) {
    const SampleSpec& s = opts_.sample;
    if (s.width <= 0 || s.height <= 0 || (s.channels != 1 && s.channels != 3))
        throw input_error("image pipeline: the model input must be (height, width, 1 or 3), got (" +
                          std::to_string(s.height) + ", " + std::to_string(s.width) + ", " +
                          std::to_string(s.channels) + ")");
    if (opts_.batch_size < 1) throw input_error("image pipeline: batch size must be at least 1");
    sample_bytes_ = std::size_t(s.elements());
    state_.assign(files_.size(), 0);
    if (opts_.cache != CacheMode::None) {
        cache_.resize(files_.size() * sample_bytes_);
        if (opts_.cache == CacheMode::File) load_cache_file();
    }
    const int workers = opts_.workers > 0 ? opts_.workers : default_pipeline_workers();
    slots_.resize(std::size_t(opts_.prefetch > 0 ? std::max(opts_.prefetch, 1) : std::max(2, 2 * workers)));
    for (Slot& slot : slots_) {
        slot.images.resize(std::size_t(opts_.batch_size) * sample_bytes_);
        slot.labels.resize(std::size_t(opts_.batch_size));
    }
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { worker(); });
}

ImagePipeline::~ImagePipeline() {
    {
        std::unique_lock lock(mutex_);
        stop_epoch(lock);
        quit_ = true;
    }
    work_cv_.notify_all();
    for (auto& t : threads_) t.join();
    if (opts_.cache == CacheMode::File && cache_dirty_ && !shard_.split()) {
        try {
            save_cache_file();
        } catch (const Error&) {  // a cache that cannot be written only costs time next run
        }
    }
}

Shape ImagePipeline::sample_shape() const {
    return Shape({Dim(opts_.sample.height), Dim(opts_.sample.width), Dim(opts_.sample.channels)});
}

void ImagePipeline::set_shard(Shard shard) {
    std::lock_guard lock(mutex_);
    shard_ = shard;
}

std::int64_t ImagePipeline::size() const {
    std::lock_guard lock(mutex_);
    if (shard_.split()) return std::int64_t(files_.size());
    return std::int64_t(std::count_if(state_.begin(), state_.end(), [](std::uint8_t s) { return s != 2; }));
}

std::int64_t ImagePipeline::steps_per_epoch() const {
    const std::int64_t n = size(), bs = opts_.batch_size;
    return opts_.drop_remainder ? n / bs : (n + bs - 1) / bs;
}

void ImagePipeline::stop_epoch(std::unique_lock<std::mutex>& lock) {
    next_task_ = batches_;  // nothing more is claimed
    ready_cv_.wait(lock, [&] { return in_flight_ == 0; });
}

void ImagePipeline::start_epoch(std::int64_t epoch) {
    std::unique_lock lock(mutex_);
    stop_epoch(lock);
    if (opts_.cache == CacheMode::File && cache_dirty_ && !shard_.split() &&
        std::find(state_.begin(), state_.end(), 0) == state_.end()) {
        save_cache_file();
        cache_dirty_ = false;
    }
    std::vector<std::int64_t> valid;
    for (std::size_t i = 0; i < files_.size(); ++i)
        if (state_[i] != 2 || shard_.split()) valid.push_back(std::int64_t(i));
    order_.clear();
    if (opts_.shuffle) {
        for (std::int64_t k : shuffle_order(std::int64_t(valid.size()), opts_.shuffle_buffer, mix(opts_.seed, std::uint64_t(epoch))))
            order_.push_back(valid[std::size_t(k)]);
    } else {
        order_ = std::move(valid);
    }
    const std::int64_t n = std::int64_t(order_.size()), bs = opts_.batch_size;
    batches_ = opts_.drop_remainder ? n / bs : (n + bs - 1) / bs;
    epoch_ = epoch;
    next_task_ = consumed_ = released_ = 0;
    for (Slot& slot : slots_) slot.batch = -1, slot.ready = false;
    decoded_ = from_cache_ = failed_ = produced_ = 0;
    wait_seconds_ = 0;
    epoch_start_ = Clock::now();
    lock.unlock();
    work_cv_.notify_all();
}

void ImagePipeline::worker() {
    Image scratch;
    std::unique_lock lock(mutex_);
    for (;;) {
        work_cv_.wait(lock, [&] {
            return quit_ || (next_task_ < batches_ && next_task_ < released_ + std::int64_t(slots_.size()));
        });
        if (quit_) return;
        const std::int64_t b = next_task_++;
        Slot& slot = slots_[std::size_t(b % std::int64_t(slots_.size()))];
        slot.batch = b;
        slot.ready = false;
        ++in_flight_;
        const std::int64_t epoch = epoch_;
        lock.unlock();
        fill(slot, b, epoch, scratch);
        lock.lock();
        --in_flight_;
        slot.ready = true;
        ready_cv_.notify_all();
    }
}

bool ImagePipeline::load(std::int64_t file, Image& out, std::int64_t& decoded, std::int64_t& cached) {
    const std::size_t f = std::size_t(file);
    if (state_[f] == 2) return false;  // failed before (a split source keeps it in the order)
    if (state_[f] == 1) {
        const std::uint8_t* p = cache_.data() + f * sample_bytes_;
        out.width = opts_.sample.width, out.height = opts_.sample.height, out.channels = opts_.sample.channels;
        out.pixels.assign(p, p + sample_bytes_);
        ++cached;
        return true;
    }
    try {
        const std::vector<std::uint8_t> bytes = read_file_bytes(files_[f].path);
        out = load_sample(bytes.data(), bytes.size(), opts_.sample);
        ++decoded;
    } catch (const std::exception& e) {
        std::error_code ec;
        const bool gone = !std::filesystem::exists(files_[f].path, ec);
        std::lock_guard lock(mutex_);
        state_[f] = 2;
        if (gone) {  // not a bad file to skip: the run cannot go on
            if (lost_.empty())
                lost_ = "the dataset file " + files_[f].path + " is missing (it was there when training started: " +
                        "was the dataset folder moved, deleted or unplugged?)";
            return false;
        }
        std::string why = e.what();
        if (why.rfind(files_[f].path + ": ", 0) == 0) why = why.substr(files_[f].path.size() + 2);
        problems_.push_back({files_[f].path, why});
        return false;
    }
    if (!cache_.empty()) {
        std::memcpy(cache_.data() + f * sample_bytes_, out.pixels.data(), sample_bytes_);  // only this worker writes f
        std::lock_guard lock(mutex_);  // size() may read the states at any time
        state_[f] = 1;
        cache_dirty_ = true;
    }
    return true;
}

void ImagePipeline::fill(Slot& slot, std::int64_t batch, std::int64_t epoch, Image& scratch) {
    const std::int64_t bs = opts_.batch_size, n = std::int64_t(order_.size());
    const std::int64_t first = batch * bs, global = std::min(n, first + bs) - first;
    const std::int64_t begin = first + shard_.begin(global), end = first + shard_.end(global);
    const std::size_t width = sample_bytes_;
    const AugmentSpec* aug = opts_.augment ? &opts_.augmentation : nullptr;
    std::int64_t count = 0, decoded = 0, cached = 0, failed = 0;
    for (std::int64_t i = begin; i < end; ++i) {
        const std::int64_t file = order_[std::size_t(i)];
        if (!load(file, scratch, decoded, cached)) {
            ++failed;
            continue;
        }
        sample_to_float(scratch, opts_.sample, aug, mix(mix(opts_.seed, std::uint64_t(epoch)), std::uint64_t(i)),
                        slot.images.data() + std::size_t(count) * width);
        slot.labels[std::size_t(count)] = files_[std::size_t(file)].label;
        ++count;
    }
    slot.count = count;
    std::lock_guard lock(mutex_);
    decoded_ += decoded, from_cache_ += cached, failed_ += failed, produced_ += count;
}

BatchView ImagePipeline::next() {
    std::unique_lock lock(mutex_);
    for (;;) {
        released_ = consumed_;  // the caller is done with the previous view
        work_cv_.notify_all();
        if (!lost_.empty()) throw runtime_error(lost_);
        if (consumed_ >= batches_) return {};
        Slot& slot = slots_[std::size_t(consumed_ % std::int64_t(slots_.size()))];
        const auto t0 = Clock::now();
        ready_cv_.wait(lock, [&] { return slot.ready && slot.batch == consumed_; });
        wait_seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
        ++consumed_;
        if (!lost_.empty()) throw runtime_error(lost_);  // the workers finished their batches: no one waits
        if (slot.count > 0 || shard_.split()) return {slot.images.data(), slot.labels.data(), slot.count};
    }
}

PipelineStats ImagePipeline::stats() const {
    std::lock_guard lock(mutex_);
    PipelineStats s;
    s.queue_capacity = std::int64_t(slots_.size());
    for (const Slot& slot : slots_) s.queue_depth += slot.ready && slot.batch >= consumed_ ? 1 : 0;
    const double dt = std::chrono::duration<double>(Clock::now() - epoch_start_).count();
    s.images_per_second = dt > 0 ? double(produced_) / dt : 0;
    s.wait_seconds = wait_seconds_;
    s.decoded = decoded_, s.from_cache = from_cache_, s.failed = failed_;
    s.workers = int(threads_.size());
    return s;
}

std::vector<FileProblem> ImagePipeline::problems() const {
    std::lock_guard lock(mutex_);
    return problems_;
}

void ImagePipeline::compute_mean_std(std::vector<float>& mean, std::vector<float>& sd) {
    const PipelineOptions saved = opts_;
    {
        std::unique_lock lock(mutex_);
        stop_epoch(lock);
        opts_.augment = false;
        opts_.sample.mean.clear();
        opts_.sample.std.clear();
    }
    const int C = opts_.sample.channels;
    std::vector<double> sum(std::size_t(C), 0), sq(std::size_t(C), 0);
    double pixels = 0;
    start_epoch(0);
    for (BatchView b = next(); b.count; b = next()) {
        const std::size_t n = std::size_t(b.count) * sample_bytes_;
        for (std::size_t i = 0; i < n; ++i) {
            sum[i % std::size_t(C)] += b.images[i];
            sq[i % std::size_t(C)] += double(b.images[i]) * b.images[i];
        }
        pixels += double(n) / C;
    }
    mean.assign(std::size_t(C), 0.f);
    sd.assign(std::size_t(C), 1.f);
    for (int c = 0; c < C; ++c) {
        if (pixels == 0) break;
        const double m = sum[std::size_t(c)] / pixels;
        mean[std::size_t(c)] = float(m);
        sd[std::size_t(c)] = float(std::max(1e-6, std::sqrt(std::max(0.0, sq[std::size_t(c)] / pixels - m * m))));
    }
    std::unique_lock lock(mutex_);
    stop_epoch(lock);
    opts_ = saved;
}

void ImagePipeline::set_normalization(std::vector<float> mean, std::vector<float> sd) {
    std::unique_lock lock(mutex_);
    stop_epoch(lock);
    opts_.sample.mean = std::move(mean);
    opts_.sample.std = std::move(sd);
}

}  // namespace lf
