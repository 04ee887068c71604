// The pipeline's file cache: decoded, resized samples saved once so that later runs skip
// decoding. The key covers the sample spec and every file's path, size and modification time,
// so any change to the folder or the model input makes the cache miss (and be rewritten).
#include <filesystem>
#include <cstring>
#include <fstream>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/data/pipeline.h"

namespace lf {

namespace {

constexpr char kMagic[8] = {'L', 'F', 'C', 'A', 'C', 'H', 'E', '1'};

std::uint64_t fnv(std::uint64_t h, const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

std::uint64_t cache_key(const std::vector<LabeledFile>& files, const SampleSpec& s) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    const int spec[] = {s.width, s.height, s.channels, int(s.resize), s.composite_alpha,
                        s.pad_color[0], s.pad_color[1], s.pad_color[2], s.background[0], s.background[1], s.background[2]};
    h = fnv(h, spec, sizeof spec);
    for (const LabeledFile& f : files) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(f.path, ec);
        const auto time = std::filesystem::last_write_time(f.path, ec).time_since_epoch().count();
        h = fnv(h, f.path.data(), f.path.size() + 1);
        h = fnv(h, &size, sizeof size);
        h = fnv(h, &time, sizeof time);
    }
    return h;
}

}  // namespace

void ImagePipeline::load_cache_file() {
    std::ifstream in(opts_.cache_file, std::ios::binary);
    if (!in) return;
    char magic[8];
    std::uint64_t key = 0, count = 0, bytes = 0;
    in.read(magic, 8);
    in.read(reinterpret_cast<char*>(&key), 8).read(reinterpret_cast<char*>(&count), 8).read(reinterpret_cast<char*>(&bytes), 8);
    if (!in || std::memcmp(magic, kMagic, 8) != 0 || count != files_.size() || bytes != sample_bytes_ ||
        key != cache_key(files_, opts_.sample))
        return;
    std::vector<std::uint8_t> state(files_.size());
    in.read(reinterpret_cast<char*>(state.data()), std::streamsize(state.size()));
    in.read(reinterpret_cast<char*>(cache_.data()), std::streamsize(cache_.size()));
    if (!in) return;  // truncated: decode again
    state_ = std::move(state);
    for (std::size_t i = 0; i < state_.size(); ++i)
        if (state_[i] == 2) problems_.push_back({files_[i].path, "could not be decoded (remembered by the sample cache)"});
}

void ImagePipeline::save_cache_file() {
    std::filesystem::path path(opts_.cache_file);
    std::error_code ec;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    const std::string tmp = unique_temporary_path(opts_.cache_file);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        const std::uint64_t key = cache_key(files_, opts_.sample), count = files_.size(), bytes = sample_bytes_;
        out.write(kMagic, 8);
        out.write(reinterpret_cast<const char*>(&key), 8).write(reinterpret_cast<const char*>(&count), 8);
        out.write(reinterpret_cast<const char*>(&bytes), 8);
        out.write(reinterpret_cast<const char*>(state_.data()), std::streamsize(state_.size()));
        out.write(reinterpret_cast<const char*>(cache_.data()), std::streamsize(cache_.size()));
        if (!out) throw runtime_error(tmp + ": cannot write the sample cache (disk full?)");
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw runtime_error(opts_.cache_file + ": cannot save the sample cache: " + ec.message());
}

}  // namespace lf
