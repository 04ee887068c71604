#pragma once
// NumPy's .npy format 1.0 for float32 little-endian C-order arrays: what numpy.save writes for a
// float32 array and numpy.load reads. The one implementation the engine has (.npz export, the
// CLI's `predict` batches).
#include <cstdint>
#include <string>
#include <vector>

namespace lf {

struct NpyArray {
    std::vector<std::int64_t> shape;
    std::vector<float> data;  // shape's product of values, C order
};

std::string encode_npy(const std::vector<std::int64_t>& shape, const float* data, std::size_t count);
// Throws lf::Error (Input) naming `origin` when the bytes are not a float32 C-order .npy array
// (another dtype, Fortran order, a damaged header, fewer data bytes than the shape needs).
NpyArray decode_npy(const std::string& bytes, const std::string& origin);

}  // namespace lf
