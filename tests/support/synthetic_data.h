#pragma once
// A tiny classification set for the fast trainer tests.
#include <algorithm>
#include <cstdint>
#include <random>

#include "layerforge/data/dataset.h"

// n samples of 4 uniform features; the label is the index of the largest of the first three.
inline lf::TensorDataset synthetic(std::int64_t n, std::uint64_t seed = 1) {
    lf::TensorDataset d;
    d.sample_shape = lf::Shape{4};
    d.class_names = {"a", "b", "c"};
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    for (std::int64_t i = 0; i < n; ++i) {
        float x[4];
        for (float& v : x) v = u(rng);
        d.images.insert(d.images.end(), x, x + 4);
        d.labels.push_back(std::int32_t(std::max_element(x, x + 3) - x));
    }
    return d;
}
