// IDX files (the MNIST format): a big-endian magic number (0x0000 08 <rank>), rank big-endian
// u32 dimensions, then u8 data. Read through zlib, which handles gzip and plain files alike.
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/data/dataset.h"

namespace lf {
namespace {

constexpr std::uint32_t kImagesMagic = 0x00000803;  // u8, rank 3: N, H, W
constexpr std::uint32_t kLabelsMagic = 0x00000801;  // u8, rank 1: N
constexpr std::uint32_t kMaxSamples = 100'000'000;
constexpr std::uint32_t kMaxSide = 16384;

struct GzCloser {
    void operator()(gzFile_s* f) const { gzclose(f); }
};

// Far above Fashion-MNIST's 47 MB (uncompressed) training images.
constexpr std::uint64_t kMaxIdxFileBytes = 4ull << 30;

class IdxFile {
public:
    explicit IdxFile(std::string path) : path_(std::move(path)) {
        std::error_code ec;
        if (!std::filesystem::exists(path_, ec))
            throw fail("file not found; check the path or reinstall the dataset");
        check_readable_file(path_, "IDX file", kMaxIdxFileBytes);
        file_.reset(gzopen(path_.c_str(), "rb"));
        if (!file_) throw fail("cannot open for reading; check its permissions");
    }

    // Reads the header, checks the magic and returns the dimensions.
    std::vector<std::uint32_t> header(std::uint32_t expected_magic, const char* what) {
        std::uint32_t magic = u32("header");
        if (magic != expected_magic)
            throw fail("wrong magic number " + hex(magic) + ", expected " + hex(expected_magic) +
                       " for an IDX " + what + " file; is this the right file?");
        std::vector<std::uint32_t> dims(magic & 0xff);
        for (std::uint32_t& d : dims) d = u32("header");
        return dims;
    }

    void read(void* dst, std::size_t n, const char* what) {
        auto* p = static_cast<unsigned char*>(dst);
        while (n > 0) {
            unsigned chunk = n > (1u << 30) ? (1u << 30) : static_cast<unsigned>(n);
            int got = gzread(file_.get(), p, chunk);
            if (got < 0) {
                int code = 0;
                const char* msg = gzerror(file_.get(), &code);
                throw fail(std::string("corrupt or unreadable data (") + (msg ? msg : "zlib error") +
                           "); re-download or reinstall the file");
            }
            if (got == 0)
                throw fail(std::string("truncated: the file ends inside the ") + what +
                           "; re-download or reinstall the file");
            p += got;
            n -= static_cast<std::size_t>(got);
        }
    }

    // Reads `total` bytes into `out`, converted by `convert`. Memory grows with what was actually
    // read, so a header that claims far more data than the file holds fails as truncated.
    template <class T, class Convert>
    void read_all(std::size_t total, const char* what, std::vector<T>& out, Convert convert) {
        std::vector<unsigned char> chunk(std::min<std::size_t>(total, std::size_t{1} << 20));
        out.reserve(std::min<std::size_t>(total, std::size_t{1} << 24));
        for (std::size_t done = 0; done < total;) {
            const std::size_t n = std::min(chunk.size(), total - done);
            read(chunk.data(), n, what);
            for (std::size_t i = 0; i < n; ++i) out.push_back(convert(chunk[i]));
            done += n;
        }
    }

    // An uncompressed file's size is known: refuse a header that declares more data than the file
    // holds before reading any of it (gzip files fail as truncated while reading, in bounded steps).
    void check_declared(std::uint64_t header_bytes, std::uint64_t data_bytes, const char* what) {
        std::error_code ec;
        const std::uint64_t size = std::filesystem::file_size(path_, ec);
        if (ec || !gzdirect(file_.get()) || header_bytes + data_bytes <= size) return;
        throw fail("the header declares " + std::to_string(data_bytes) + " bytes of " + what + " but the file holds " +
                   std::to_string(size > header_bytes ? size - header_bytes : 0) +
                   "; it is truncated or damaged: re-download or reinstall the file");
    }

    Error fail(const std::string& problem) const { return input_error(path_ + ": " + problem); }

private:
    std::uint32_t u32(const char* what) {
        std::array<unsigned char, 4> b{};
        read(b.data(), b.size(), what);
        return (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3];
    }

    static std::string hex(std::uint32_t v) {
        static const char* digits = "0123456789abcdef";
        std::string s = "0x";
        for (int shift = 28; shift >= 0; shift -= 4) s += digits[(v >> shift) & 0xf];
        return s;
    }

    std::string path_;
    std::unique_ptr<gzFile_s, GzCloser> file_;
};

}  // namespace

TensorDataset read_idx_pair(const std::string& images_path, const std::string& labels_path,
                            std::int64_t limit) {
    IdxFile images(images_path);
    IdxFile labels(labels_path);
    std::vector<std::uint32_t> idims = images.header(kImagesMagic, "images");
    std::vector<std::uint32_t> ldims = labels.header(kLabelsMagic, "labels");
    const std::uint32_t n = idims[0], h = idims[1], w = idims[2];
    if (n > kMaxSamples || h == 0 || w == 0 || h > kMaxSide || w > kMaxSide)
        throw images.fail("implausible dimensions " + std::to_string(n) + " x " + std::to_string(h) +
                          " x " + std::to_string(w) + "; the file is damaged or not an image file");
    if (ldims[0] != n)
        throw labels.fail("holds " + std::to_string(ldims[0]) + " labels but " + images_path + " holds " +
                          std::to_string(n) + " images; use matching image and label files");

    std::int64_t count = n;
    if (limit > 0 && limit < count) count = limit;
    const std::size_t pixels = static_cast<std::size_t>(h) * w;

    const auto n_used = static_cast<std::size_t>(count);
    images.check_declared(4 + 4 * idims.size(), std::uint64_t(n_used) * pixels, "image data");
    labels.check_declared(4 + 4 * ldims.size(), n_used, "label data");

    TensorDataset ds;
    ds.sample_shape = Shape({Dim(h), Dim(w), 1});
    images.read_all(n_used * pixels, "image data", ds.images,
                    [](unsigned char b) { return static_cast<float>(b) / 255.0f; });
    labels.read_all(n_used, "label data", ds.labels, [](unsigned char b) { return std::int32_t{b}; });
    return ds;
}

}  // namespace lf
