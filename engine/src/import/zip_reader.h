#pragma once
// Read-only access to a zip archive held in memory (libzip): the entries a Keras .keras file
// holds. Failures are lf::Error (Input) naming the origin and the entry.
#include <cstdint>
#include <string>

struct zip;

namespace lf::zipfile {

class Reader {
public:
    // Reads `bytes` in place: they must outlive the reader. Throws lf::Error (Input)
    // "<origin>: not a zip archive ..." when libzip cannot open it.
    Reader(const std::string& bytes, std::string origin);
    ~Reader();
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;

    bool has(const std::string& name) const;
    // The entry's uncompressed bytes; throws when it is missing, damaged or larger than max_bytes.
    std::string read(const std::string& name, std::uint64_t max_bytes) const;

private:
    std::string origin_;
    zip* archive_ = nullptr;
};

}  // namespace lf::zipfile
