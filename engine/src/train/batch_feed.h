#pragma once
// Copies the samples of one batch (by index) into a plan's input buffer and label array.
#include <cstring>

#include "layerforge/data/dataset.h"

namespace lf {

inline void gather_batch(const TensorDataset& d, const std::int64_t* index, std::int64_t n, float* images,
                         std::int32_t* labels) {
    const std::size_t width = std::size_t(d.sample_shape.elements());
    for (std::int64_t i = 0; i < n; ++i) {
        std::memcpy(images + std::size_t(i) * width, d.sample(index[i]), width * sizeof(float));
        labels[i] = d.labels[std::size_t(index[i])];
    }
}

}  // namespace lf
