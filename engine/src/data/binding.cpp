#include "layerforge/data/binding.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "layerforge/core/error.h"

namespace lf {

namespace {

TensorDataset subset(const TensorDataset& d, const std::vector<std::int64_t>& index) {
    TensorDataset out;
    out.sample_shape = d.sample_shape;
    out.class_names = d.class_names;
    const std::size_t width = std::size_t(d.sample_shape.elements());
    out.images.resize(index.size() * width);
    out.labels.resize(index.size());
    for (std::size_t i = 0; i < index.size(); ++i) {
        std::copy_n(d.sample(index[i]), width, out.images.data() + i * width);
        out.labels[i] = d.labels[std::size_t(index[i])];
    }
    return out;
}

}  // namespace

std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> split_indices(const std::vector<std::int32_t>& labels,
                                                                               double fraction, std::uint64_t seed) {
    std::int32_t classes = 0;
    for (std::int32_t l : labels) classes = std::max(classes, l + 1);
    std::vector<std::vector<std::int64_t>> by_class(static_cast<std::size_t>(classes));
    for (std::size_t i = 0; i < labels.size(); ++i) by_class[std::size_t(labels[i])].push_back(std::int64_t(i));
    std::mt19937_64 rng(seed);
    std::vector<std::int64_t> held, kept;
    for (auto& members : by_class) {
        for (std::size_t i = members.size(); i > 1; --i) std::swap(members[i - 1], members[rng() % i]);
        std::size_t take = std::size_t(std::llround(fraction * double(members.size())));
        if (take == 0 && members.size() >= 2 && fraction > 0) take = 1;
        held.insert(held.end(), members.begin(), members.begin() + std::int64_t(take));
        kept.insert(kept.end(), members.begin() + std::int64_t(take), members.end());
    }
    std::sort(held.begin(), held.end());
    std::sort(kept.begin(), kept.end());
    return {kept, held};
}

TensorDataset split_stratified(TensorDataset& data, double fraction, std::uint64_t seed) {
    auto [kept, held] = split_indices(data.labels, fraction, seed);
    TensorDataset validation = subset(data, held);
    data = subset(data, kept);
    return validation;
}

void check_validation_mode(const DatasetBinding& b) {
    if (b.validation == "split" && (b.validation_split <= 0 || b.validation_split >= 1))
        throw input_error("dataset.validation_split: must be between 0 and 1 when dataset.validation is \"split\"");
    if (b.validation != "test" && b.validation != "split" && b.validation != "none")
        throw input_error("dataset.validation: must be \"test\", \"split\" or \"none\"");
}

BoundData load_bound_data(const DatasetBinding& b, std::int64_t seed) {
    if (b.kind != "fashion-mnist")
        throw input_error("dataset.kind: '" + b.kind + "' is not held in memory; use bind_sources()");
    check_validation_mode(b);
    DatasetSplits s = load_fashion_mnist(b.path, b.limit_train, b.limit_test);
    BoundData out{std::move(s.train), std::nullopt, std::move(s.test)};
    if (b.validation == "test") {
        out.validation = out.test;
    } else if (b.validation == "split") {
        out.validation = split_stratified(out.train, b.validation_split, std::uint64_t(seed));
    }
    return out;
}

}  // namespace lf
