#pragma once
// Writes an HDF5 file in memory (the HDF5 C library's core driver, nothing on disk) and returns
// its bytes: groups and float32 datasets, all the .keras weights file needs.
#include <cstdint>
#include <string>
#include <vector>

namespace lf::exporter {

class Hdf5Image {
public:
    Hdf5Image();
    ~Hdf5Image();
    Hdf5Image(const Hdf5Image&) = delete;
    Hdf5Image& operator=(const Hdf5Image&) = delete;

    void group(const std::string& path);  // with any missing parents
    void dataset(const std::string& path, const std::vector<std::int64_t>& shape, const float* values);
    std::string bytes();  // the file as it is now

private:
    std::int64_t file_ = -1;  // hid_t
};

}  // namespace lf::exporter
