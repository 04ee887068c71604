// Fashion-MNIST as installed by Debian's dataset-fashion-mnist package.
#include <cstdlib>
#include <filesystem>
#include <string>

#include "layerforge/core/error.h"
#include "layerforge/data/dataset.h"

namespace lf {
namespace {

constexpr const char* kInstallHint =
    "install the Debian package dataset-fashion-mnist (apt-get install dataset-fashion-mnist) "
    "or set LF_FASHION_MNIST_DIR to a folder holding the four .gz files";

TensorDataset load_split(const std::filesystem::path& dir, const std::string& prefix, std::int64_t limit) {
    const std::filesystem::path images = dir / (prefix + "-images-idx3-ubyte.gz");
    const std::filesystem::path labels = dir / (prefix + "-labels-idx1-ubyte.gz");
    std::error_code ec;
    for (const auto& f : {images, labels})
        if (!std::filesystem::exists(f, ec))
            throw input_error(f.string() + ": Fashion-MNIST file not found; " + kInstallHint);
    TensorDataset ds = read_idx_pair(images.string(), labels.string(), limit);
    ds.class_names = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                      "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
    return ds;
}

}  // namespace

std::string default_fashion_mnist_dir() {
    const char* env = std::getenv("LF_FASHION_MNIST_DIR");
    if (env && *env) return env;
    return "/usr/share/datasets/fashion-mnist";
}

DatasetSplits load_fashion_mnist(const std::string& dir, std::int64_t limit_train, std::int64_t limit_test) {
    const std::filesystem::path root = dir.empty() ? default_fashion_mnist_dir() : dir;
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec))
        throw input_error(root.string() + ": Fashion-MNIST folder not found; " + kInstallHint);
    return DatasetSplits{load_split(root, "train", limit_train), load_split(root, "t10k", limit_test)};
}

}  // namespace lf
