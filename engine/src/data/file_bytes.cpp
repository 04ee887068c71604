// Image files in and out: reads under core/file_io's open policy, writes without its fsync (image.h).
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/data/image.h"

namespace lf {

std::vector<std::uint8_t> read_file_bytes(const std::string& path) {
    return ReadableFile(path, "image file", kMaxImageFileBytes).read_all_bytes();
}

void write_file_bytes(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    const std::string tmp = unique_temporary_path(path);
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw input_error(path + ": cannot create (" + std::strerror(errno) + "); check the folder's permissions");
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    if (std::fclose(f) != 0 || !ok) {
        std::remove(tmp.c_str());
        throw runtime_error(path + ": cannot write: " + disk_full_message(path, bytes.size()));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) throw input_error(path + ": cannot rename the temporary file");
}

}  // namespace lf
