#pragma once
// Read-only access to an HDF5 file held in memory (the HDF5 C library's core driver), for the
// Keras readers: groups, string attributes and float datasets. HDF5's own error printing is
// switched off; every failure is lf::Error (Input) naming the origin and the object.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layerforge/import/import.h"

namespace lf::h5 {

class Reader {
public:
    // Throws lf::Error (Input) "<origin>: not an HDF5 file" for anything HDF5 cannot open.
    Reader(const std::string& bytes, std::string origin);
    ~Reader();
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;

    const std::string& origin() const { return origin_; }
    bool is_group(const std::string& path) const;  // every step of the path exists and the end is a group
    // The names directly inside a group, in HDF5's name order; throws when it is not a group.
    std::vector<std::string> children(const std::string& group) const;
    // A string attribute (one string, or an array of them, fixed or variable length) of the object
    // at `path`; nullopt when the object has no attribute of that name.
    std::optional<std::vector<std::string>> strings(const std::string& path, const std::string& name) const;
    // A numeric dataset converted to float32, with its shape.
    ImportedTensor tensor(const std::string& path) const;

private:
    std::string origin_;
    std::int64_t file_ = -1;  // hid_t
};

}  // namespace lf::h5
