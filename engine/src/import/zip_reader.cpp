#include "import/zip_reader.h"

#include <zip.h>

#include <memory>

#include "layerforge/core/error.h"

namespace lf::zipfile {

Reader::Reader(const std::string& bytes, std::string origin) : origin_(std::move(origin)) {
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
    if (source) archive_ = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error);
    if (!archive_) {
        if (source) zip_source_free(source);
        const std::string why = zip_error_strerror(&error);
        zip_error_fini(&error);
        throw input_error(origin_ + ": not a zip archive (" + why + "); a .keras file is one");
    }
    zip_error_fini(&error);
}

Reader::~Reader() {
    if (archive_) zip_discard(archive_);  // read-only: nothing to write back
}

bool Reader::has(const std::string& name) const { return zip_name_locate(archive_, name.c_str(), 0) >= 0; }

std::string Reader::read(const std::string& name, std::uint64_t max_bytes) const {
    const std::string where = origin_ + ": " + name;
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat(archive_, name.c_str(), 0, &st) < 0) throw input_error(where + " is not in the archive");
    if (!(st.valid & ZIP_STAT_SIZE) || st.size > max_bytes)
        throw input_error(where + " is larger than " + std::to_string(max_bytes >> 20) + " MB; the file is damaged");
    std::unique_ptr<zip_file_t, int (*)(zip_file_t*)> file(zip_fopen(archive_, name.c_str(), 0), zip_fclose);
    if (!file) throw input_error(where + " cannot be opened: " + zip_strerror(archive_));
    std::string out(std::size_t(st.size), '\0');
    std::uint64_t done = 0;
    while (done < st.size) {
        const zip_int64_t n = zip_fread(file.get(), out.data() + done, st.size - done);
        if (n <= 0) throw input_error(where + " is damaged (" + zip_file_strerror(file.get()) + ")");
        done += std::uint64_t(n);
    }
    return out;
}

}  // namespace lf::zipfile
