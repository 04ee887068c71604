#include "layerforge/data/idx_import.h"

#include <atomic>
#include <cstdio>
#include <filesystem>

#include "data/parallel.h"
#include "layerforge/core/error.h"
#include "layerforge/data/dataset.h"
#include "layerforge/data/image.h"

namespace fs = std::filesystem;

namespace lf {

std::string class_folder_name(int label, const std::string& name) {
    std::string out = std::to_string(label) + "_";
    for (char c : name) out += c == '/' ? '-' : c == ' ' ? '_' : c;
    return out;
}

namespace {

// Progress over both splits: `done` counts images already written by earlier splits too.
struct ProgressCount {
    const ImportProgress& report;
    std::int64_t total = 0;
    std::atomic<std::int64_t> done{0};
    void step() {
        const std::int64_t n = done.fetch_add(1) + 1;
        if (report && (n % 256 == 0 || n == total)) report(n, total);  // not per image: callers post to a UI
    }
};

std::int64_t write_split(const TensorDataset& d, const fs::path& dir, const std::vector<std::string>& folders,
                         int threads, ProgressCount& progress) {
    std::error_code ec;
    for (const std::string& f : folders) {
        fs::create_directories(dir / f, ec);
        if (ec) throw input_error((dir / f).string() + ": cannot create the folder (" + ec.message() + ")");
    }
    const int h = int(d.sample_shape[0]), w = int(d.sample_shape[1]);
    detail::parallel_for(d.size(), threads, [&](std::int64_t i) {
        Image img;
        img.allocate(w, h, 1);
        const float* s = d.sample(i);
        for (std::size_t k = 0; k < img.pixels.size(); ++k) img.pixels[k] = std::uint8_t(s[k] * 255.f + 0.5f);
        char name[32];
        std::snprintf(name, sizeof name, "%05lld.png", static_cast<long long>(i));
        write_file_bytes((dir / folders[std::size_t(d.labels[std::size_t(i)])] / name).string(), encode_png(img));
        progress.step();
    });
    return d.size();
}

}  // namespace

IdxImportResult import_fashion_mnist(const std::string& out_dir, const std::string& source_dir,
                                     std::int64_t limit_train, std::int64_t limit_test, int threads,
                                     const ImportProgress& report) {
    if (out_dir.empty()) throw input_error("give the output folder for the imported images (--out DIR)");
    DatasetSplits s = load_fashion_mnist(source_dir, limit_train, limit_test);
    IdxImportResult r;
    for (std::size_t i = 0; i < s.train.class_names.size(); ++i)
        r.class_folders.push_back(class_folder_name(int(i), s.train.class_names[i]));
    ProgressCount progress{report, s.train.size() + s.test.size()};
    r.train = write_split(s.train, fs::path(out_dir) / "train", r.class_folders, threads, progress);
    r.test = write_split(s.test, fs::path(out_dir) / "test", r.class_folders, threads, progress);
    return r;
}

}  // namespace lf
