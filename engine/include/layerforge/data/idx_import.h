#pragma once
// IDX (MNIST-format) files -> an image folder (out/train/CLASS/*.png, out/test/CLASS/*.png), so
// the built-in Fashion-MNIST example trains through the same pipeline as user data.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lf {

struct IdxImportResult {
    std::int64_t train = 0, test = 0;       // images written
    std::vector<std::string> class_folders; // in label order
};

// "3 Dress" -> "3_Dress": the label index first keeps sorted folder order equal to the IDX label
// order; characters that cannot be in a folder name ('/') become '-', spaces '_'.
std::string class_folder_name(int label, const std::string& class_name);

// Called from the writing threads (any of them) with the images written so far and the total.
// It may throw to abort the import; the exception reaches import_fashion_mnist's caller.
using ImportProgress = std::function<void(std::int64_t done, std::int64_t total)>;

// Imports Fashion-MNIST from `source_dir` (empty: Debian's install path). Existing files with the
// same names are overwritten. Throws lf::Error (Input) for missing IDX files or an unwritable out.
IdxImportResult import_fashion_mnist(const std::string& out_dir, const std::string& source_dir = {},
                                     std::int64_t limit_train = 0, std::int64_t limit_test = 0, int threads = 0,
                                     const ImportProgress& progress = {});

}  // namespace lf
