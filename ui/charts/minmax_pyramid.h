#pragma once
// Decimation for display that keeps a curve's visual envelope, Qt-free. Level k of the pyramid
// holds, for every block of 2^k consecutive points, the index of its smallest and of its
// largest value. A query for points [first, last) picks the level whose blocks give about
// `maxBuckets` buckets (one per pixel column) and returns each bucket's min and max in index
// order, plus the first and last point: the drawn polyline touches every extreme, so spikes
// survive at any zoom. Appending is amortised O(1) (level k changes once every 2^k points),
// a query costs O(maxBuckets) whatever the series length, and the memory is about 2 indices
// per point. Non-finite values are never chosen as extremes unless a block has nothing else.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lf::ui {

class MinMaxPyramid {
public:
    void clear();
    void append(double value);
    void assign(std::vector<double> values);  // O(n): after smoothing changes, or truncation
    std::size_t size() const { return values_.size(); }
    const std::vector<double>& values() const { return values_; }

    // Block size (a power of two) that select() uses for `count` points and `maxBuckets`.
    static std::size_t bucketSize(std::size_t count, std::size_t maxBuckets);

    // Sorted, unique indices to draw for [first, last): first, last - 1, and the min and max of
    // every bucket (aligned block of bucketSize points) overlapping the range. The edge buckets
    // may contribute points just outside the range, so the line runs on to the plot's edges;
    // a tail not yet filling a block is covered by smaller blocks. At most
    // 2 * (count / bucketSize + 2 + log2(bucketSize)) + 2 indices; a short range comes back whole.
    std::vector<std::size_t> select(std::size_t first, std::size_t last, std::size_t maxBuckets) const;

private:
    struct Extremes {
        std::uint32_t min, max;
    };
    Extremes combine(Extremes a, Extremes b) const;
    Extremes block(std::size_t level, std::size_t index) const;  // level 0 is the point itself
    void extendLevels(std::size_t from);                         // recompute blocks completed past `from`

    std::vector<double> values_;
    std::vector<std::vector<Extremes>> levels_;  // levels_[k - 1] has blocks of 2^k points
};

}  // namespace lf::ui
