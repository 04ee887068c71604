#pragma once
// Constant tensors of an ONNX file (initializers, Constant nodes, folded shape arithmetic) as
// plain vectors: floats for weights, 64-bit integers for shapes, indices and booleans.
#include <cstdint>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace lf::onnx_import {

struct ConstTensor {
    std::vector<std::int64_t> dims;
    bool integer = false;        // INT64, INT32, INT8, UINT8, BOOL: in `ints`
    std::vector<float> floats;   // FLOAT, DOUBLE
    std::vector<std::int64_t> ints;

    std::size_t size() const { return integer ? ints.size() : floats.size(); }
    double at(std::size_t i) const { return integer ? double(ints[i]) : double(floats[i]); }
};

std::int64_t element_count(const std::vector<std::int64_t>& dims);

// Reads a TensorProto, also one whose data lies in a file beside the model (external data,
// relative to `model_dir`). Throws lf::Error (Input) naming `origin` and the tensor.
ConstTensor read_tensor(const onnx::TensorProto& t, const std::string& model_dir, const std::string& origin);

}  // namespace lf::onnx_import
