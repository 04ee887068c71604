#include "export/zip_image.h"

#include <zip.h>

#include "layerforge/core/error.h"

namespace lf::exporter {

namespace {

[[noreturn]] void fail(const std::string& what, zip_error_t* error) {
    const std::string why = error ? zip_error_strerror(error) : "unknown error";
    throw runtime_error("libzip could not " + what + ": " + why);
}

// The bytes a buffer source holds once its archive is closed.
std::string read_source(zip_source_t* source) {
    if (zip_source_open(source) < 0) fail("reopen the archive", zip_source_error(source));
    zip_source_seek(source, 0, SEEK_END);
    const zip_int64_t size = zip_source_tell(source);
    zip_source_seek(source, 0, SEEK_SET);
    std::string out(std::size_t(size > 0 ? size : 0), '\0');
    const zip_int64_t n = out.empty() ? 0 : zip_source_read(source, out.data(), zip_uint64_t(out.size()));
    zip_source_close(source);
    if (n != zip_int64_t(out.size())) fail("read the archive back", zip_source_error(source));
    return out;
}

}  // namespace

std::string zip_image(const std::vector<std::pair<std::string, std::string>>& entries) {
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &error);
    if (!buffer) fail("create a buffer", &error);
    zip_source_keep(buffer);  // outlives the archive, which frees its source on close
    zip_t* archive = zip_open_from_source(buffer, ZIP_TRUNCATE, &error);
    if (!archive) {
        zip_source_free(buffer);
        fail("open an archive in memory", &error);
    }
    for (const auto& [name, bytes] : entries) {
        zip_source_t* s = zip_source_buffer(archive, bytes.data(), bytes.size(), 0);  // `entries` outlive zip_close
        if (!s || zip_file_add(archive, name.c_str(), s, ZIP_FL_ENC_UTF_8) < 0) {
            if (s) zip_source_free(s);
            zip_discard(archive);
            zip_source_free(buffer);
            fail("add " + name, nullptr);
        }
    }
    if (zip_close(archive) < 0) {
        zip_discard(archive);
        zip_source_free(buffer);
        fail("finish the archive", nullptr);
    }
    std::string out = read_source(buffer);
    zip_source_free(buffer);
    return out;
}

}  // namespace lf::exporter
