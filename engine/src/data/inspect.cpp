// inspect_image_folder: decodes every image once for the statistics and the problem list.
#include <algorithm>
#include <functional>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include "data/parallel.h"
#include "layerforge/core/error.h"
#include "layerforge/data/image.h"
#include "layerforge/data/scan.h"

namespace lf {

namespace {

struct Decoded {
    bool ok = false;
    std::string reason;
    int width = 0, height = 0, channels = 0;
    ImageFormat format = ImageFormat::Unknown;
    std::uint64_t hash = 0;
    std::size_t bytes = 0;
};

Decoded examine(const std::string& path) {
    Decoded d;
    try {
        const std::vector<std::uint8_t> bytes = read_file_bytes(path);
        d.bytes = bytes.size();
        d.hash = std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
        d.format = sniff_format(bytes.data(), bytes.size());
        DecodeOptions opts;
        opts.channels = 0;
        const Image img = decode_image(bytes.data(), bytes.size(), opts);
        d.width = img.width, d.height = img.height, d.channels = img.channels;
        d.ok = true;
    } catch (const Error& e) {
        d.reason = e.what();
    }
    return d;
}

}  // namespace

FolderReport inspect_image_folder(const std::string& root, int threads) {
    FolderReport r;
    r.scan = scan_image_folder(root);
    r.problems = r.scan.problems;
    const std::size_t classes = r.scan.class_names.size();
    std::vector<const std::vector<LabeledFile>*> splits = {&r.scan.train, &r.scan.validation, &r.scan.test};
    std::vector<std::vector<std::int64_t>*> counts = {&r.train_counts, &r.validation_counts, &r.test_counts};
    std::unordered_map<std::uint64_t, std::vector<std::string>> by_hash;  // key mixes hash and size
    for (std::size_t s = 0; s < splits.size(); ++s) {
        const auto& files = *splits[s];
        counts[s]->assign(classes, 0);
        std::vector<Decoded> results(files.size());
        detail::parallel_for(std::int64_t(files.size()), threads,
                             [&](std::int64_t i) { results[std::size_t(i)] = examine(files[std::size_t(i)].path); });
        for (std::size_t i = 0; i < files.size(); ++i) {
            const Decoded& d = results[i];
            if (!d.ok) {
                r.problems.push_back({files[i].path, d.reason});
                continue;
            }
            ++r.usable;
            ++(*counts[s])[std::size_t(files[i].label)];
            ++r.sizes[std::to_string(d.width) + "x" + std::to_string(d.height)];
            ++r.channels[d.channels];
            ++r.formats[to_string(d.format)];
            by_hash[d.hash ^ (std::uint64_t(d.bytes) * 0x9e3779b97f4a7c15ULL)].push_back(files[i].path);
        }
    }
    for (auto& [key, paths] : by_hash)
        if (paths.size() > 1) r.duplicates.push_back(paths);
    std::sort(r.duplicates.begin(), r.duplicates.end());
    return r;
}

}  // namespace lf
