#include "charts/minmax_pyramid.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace lf::ui {

namespace {

// true when a should replace b as the minimum (NaN never wins over a number)
bool lessFinite(double a, double b) { return !std::isnan(a) && (std::isnan(b) || a < b); }

}  // namespace

void MinMaxPyramid::clear() {
    values_.clear();
    levels_.clear();
}

MinMaxPyramid::Extremes MinMaxPyramid::combine(Extremes a, Extremes b) const {
    return {lessFinite(values_[b.min], values_[a.min]) ? b.min : a.min,
            lessFinite(-values_[b.max], -values_[a.max]) ? b.max : a.max};
}

MinMaxPyramid::Extremes MinMaxPyramid::block(std::size_t level, std::size_t index) const {
    if (level == 0) return {std::uint32_t(index), std::uint32_t(index)};
    return levels_[level - 1][index];
}

void MinMaxPyramid::append(double value) {
    values_.push_back(value);
    extendLevels(values_.size() - 1);
}

void MinMaxPyramid::assign(std::vector<double> values) {
    values_ = std::move(values);
    levels_.clear();
    extendLevels(0);
}

void MinMaxPyramid::extendLevels(std::size_t from) {
    // Level k's blocks are complete when both halves at level k-1 are; build only new ones.
    std::size_t below = values_.size();  // blocks at the level below
    for (std::size_t level = 1; below >= 2; ++level) {
        if (levels_.size() < level) levels_.emplace_back();
        std::vector<Extremes>& blocks = levels_[level - 1];
        const std::size_t complete = below / 2;
        const std::size_t start = std::min(blocks.size(), from >> level);
        if (start >= complete && blocks.size() == complete) break;  // nothing new here, nor above
        blocks.resize(complete);
        for (std::size_t i = start; i < complete; ++i)
            blocks[i] = combine(block(level - 1, 2 * i), block(level - 1, 2 * i + 1));
        below = complete;
    }
}

std::size_t MinMaxPyramid::bucketSize(std::size_t count, std::size_t maxBuckets) {
    maxBuckets = std::max<std::size_t>(maxBuckets, 1);
    std::size_t size = 1;
    while (count > maxBuckets * size) size *= 2;
    return size;
}

std::vector<std::size_t> MinMaxPyramid::select(std::size_t first, std::size_t last, std::size_t maxBuckets) const {
    last = std::min(last, values_.size());
    std::vector<std::size_t> out;
    if (first >= last) return out;
    const std::size_t size = bucketSize(last - first, maxBuckets);
    std::size_t level = 0;
    while ((std::size_t(1) << level) < size) ++level;
    out.reserve(2 * ((last - first) / size + 2) + 2);
    out.push_back(first);
    // Buckets are the pyramid's aligned blocks overlapping the range; the trailing partial block
    // (not yet in the pyramid) is scanned from the level below, down to single points.
    std::size_t pos = first / size * size;
    while (pos < last) {
        std::size_t lv = level;
        while (lv > 0 && (pos + (std::size_t(1) << lv) > values_.size() || pos % (std::size_t(1) << lv) != 0)) --lv;
        const Extremes e = block(lv, pos >> lv);
        out.push_back(std::min(e.min, e.max));
        out.push_back(std::max(e.min, e.max));
        pos += std::size_t(1) << lv;
    }
    out.push_back(last - 1);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace lf::ui
