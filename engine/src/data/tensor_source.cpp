#include <algorithm>
#include <cstring>
#include <numeric>
#include <sstream>

#include "layerforge/core/error.h"
#include "layerforge/data/batch_source.h"

namespace lf {

TensorSource::TensorSource(const TensorDataset& data, std::int64_t batch_size, bool shuffle, std::uint64_t seed)
    : data_(data), batch_(std::max<std::int64_t>(1, std::min(batch_size, data.size()))), shuffle_(shuffle), rng_(seed) {
    order_.resize(std::size_t(data.size()));
    images_.resize(std::size_t(batch_ * data.sample_shape.elements()));
    labels_.resize(std::size_t(batch_));
}

void TensorSource::start_epoch(std::int64_t) {
    std::iota(order_.begin(), order_.end(), 0);
    const std::int64_t n = data_.size();
    if (shuffle_)
        for (std::int64_t i = n - 1; i > 0; --i) std::swap(order_[std::size_t(i)], order_[rng_() % std::uint64_t(i + 1)]);
    pos_ = 0;
}

BatchView TensorSource::next() {
    const std::int64_t global = std::min(batch_, data_.size() - pos_);
    if (global <= 0) return {};
    const std::int64_t first = pos_ + shard_.begin(global), count = shard_.size(global);
    const std::size_t width = std::size_t(data_.sample_shape.elements());
    for (std::int64_t i = 0; i < count; ++i) {
        const std::int64_t index = order_[std::size_t(first + i)];
        std::memcpy(images_.data() + std::size_t(i) * width, data_.sample(index), width * sizeof(float));
        labels_[std::size_t(i)] = data_.labels[std::size_t(index)];
    }
    pos_ += global;
    return {images_.data(), labels_.data(), count};
}

std::string TensorSource::shuffle_state() const {
    std::ostringstream s;
    s << rng_;
    return s.str();
}

void TensorSource::set_shuffle_state(const std::string& state) {
    std::istringstream in(state);
    if (!(in >> rng_)) throw input_error("the checkpoint's shuffle state is damaged");
}

}  // namespace lf
