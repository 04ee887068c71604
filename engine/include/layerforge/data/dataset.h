#pragma once
// In-memory labelled image tensors (channels-last, float in [0, 1]) and Fashion-MNIST.
#include <cstdint>
#include <string>
#include <vector>

#include "layerforge/core/shape.h"

namespace lf {

struct TensorDataset {
    Shape sample_shape;                    // e.g. (28, 28, 1)
    std::vector<float> images;             // size() * sample_shape.elements()
    std::vector<std::int32_t> labels;      // size()
    std::vector<std::string> class_names;
    std::int64_t size() const { return static_cast<std::int64_t>(labels.size()); }
    const float* sample(std::int64_t i) const { return images.data() + i * sample_shape.elements(); }
};

// Reads an IDX image file (magic 0x803, u8) and its label file (magic 0x801), gzip-compressed or
// plain. Throws lf::Error (Input) naming the file and what is wrong (missing, truncated, bad magic,
// count mismatch). limit > 0 keeps only the first `limit` samples.
TensorDataset read_idx_pair(const std::string& images_path, const std::string& labels_path,
                            std::int64_t limit = 0);

struct DatasetSplits {
    TensorDataset train, test;
};

// Directory of Debian's dataset-fashion-mnist (env LF_FASHION_MNIST_DIR overrides).
std::string default_fashion_mnist_dir();
// Loads {train,t10k}-{images-idx3,labels-idx1}-ubyte.gz from dir (empty: the default). A missing
// directory or file says to install the Debian package dataset-fashion-mnist.
DatasetSplits load_fashion_mnist(const std::string& dir = {}, std::int64_t limit_train = 0,
                                 std::int64_t limit_test = 0);

}  // namespace lf
