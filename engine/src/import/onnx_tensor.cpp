#include "import/onnx_tensor.h"

#include <cstring>
#include <filesystem>
#include <fstream>

#include "layerforge/core/checked.h"
#include "layerforge/core/error.h"

namespace lf::onnx_import {

std::int64_t element_count(const std::vector<std::int64_t>& dims) {
    std::int64_t n = 1;
    for (std::int64_t d : dims) {
        if (d < 0) throw input_error("negative tensor dimension " + std::to_string(d));
        n = mul_size(n, d);
    }
    return n;
}

namespace {

std::size_t element_bytes(int type) {
    switch (type) {
    case onnx::TensorProto::FLOAT:
    case onnx::TensorProto::INT32: return 4;
    case onnx::TensorProto::DOUBLE:
    case onnx::TensorProto::INT64: return 8;
    case onnx::TensorProto::INT8:
    case onnx::TensorProto::UINT8:
    case onnx::TensorProto::BOOL: return 1;
    default: return 0;
    }
}

std::int64_t entry_number(const std::string& text, const std::string& what) {
    try {
        std::size_t used = 0;
        const std::int64_t v = std::stoll(text, &used);
        if (used == text.size()) return v;
    } catch (const std::exception&) {
    }
    throw input_error(what + ": external data entry '" + text + "' is not a number");
}

// The bytes of a tensor stored as external data: location, offset and length from its entries.
std::string external_bytes(const onnx::TensorProto& t, const std::string& model_dir, const std::string& what) {
    std::string location;
    std::int64_t offset = 0, length = -1;
    for (const auto& e : t.external_data()) {
        if (e.key() == "location") location = e.value();
        else if (e.key() == "offset") offset = entry_number(e.value(), what);
        else if (e.key() == "length") length = entry_number(e.value(), what);
    }
    if (location.empty()) throw input_error(what + " is stored outside the file but names no location");
    const std::filesystem::path file = std::filesystem::path(model_dir) / location;
    std::ifstream in(file, std::ios::binary);
    if (!in) throw input_error(what + ": its external data file " + file.string() + " is missing; keep it beside the model");
    in.seekg(0, std::ios::end);
    const std::int64_t size = in.tellg();
    if (length < 0) length = size - offset;
    if (offset < 0 || offset > size || length > size - offset)
        throw input_error(what + ": the external data file " + file.string() + " is shorter than the tensor (" +
                          std::to_string(size) + " bytes); it is truncated or belongs to another model");
    std::string bytes(std::size_t(length), '\0');
    in.seekg(offset);
    in.read(bytes.data(), length);
    return bytes;
}

template <class T, class Out>
void decode_raw(const std::string& raw, std::vector<Out>& out) {
    out.resize(raw.size() / sizeof(T));
    for (std::size_t i = 0; i < out.size(); ++i) {
        T v;
        std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
        out[i] = Out(v);
    }
}

void decode_bytes(int type, const std::string& raw, ConstTensor& c) {
    switch (type) {
    case onnx::TensorProto::FLOAT: decode_raw<float>(raw, c.floats); break;
    case onnx::TensorProto::DOUBLE: decode_raw<double>(raw, c.floats); break;
    case onnx::TensorProto::INT64: decode_raw<std::int64_t>(raw, c.ints); break;
    case onnx::TensorProto::INT32: decode_raw<std::int32_t>(raw, c.ints); break;
    case onnx::TensorProto::INT8: decode_raw<std::int8_t>(raw, c.ints); break;
    default: decode_raw<std::uint8_t>(raw, c.ints); break;  // UINT8, BOOL
    }
}

void decode_fields(const onnx::TensorProto& t, ConstTensor& c) {
    switch (t.data_type()) {
    case onnx::TensorProto::FLOAT: c.floats.assign(t.float_data().begin(), t.float_data().end()); break;
    case onnx::TensorProto::DOUBLE: c.floats.assign(t.double_data().begin(), t.double_data().end()); break;
    case onnx::TensorProto::INT64: c.ints.assign(t.int64_data().begin(), t.int64_data().end()); break;
    default: c.ints.assign(t.int32_data().begin(), t.int32_data().end()); break;  // INT32, INT8, UINT8, BOOL
    }
}

}  // namespace

ConstTensor read_tensor(const onnx::TensorProto& t, const std::string& model_dir, const std::string& origin) {
    const std::string what = origin + ": tensor '" + t.name() + "'";
    const std::size_t bytes = element_bytes(t.data_type());
    if (bytes == 0)
        throw input_error(what + " has data type " + std::to_string(t.data_type()) +
                          ", which Layerforge does not read (float, double and integer tensors only)");
    ConstTensor c;
    c.dims.assign(t.dims().begin(), t.dims().end());
    c.integer = t.data_type() != onnx::TensorProto::FLOAT && t.data_type() != onnx::TensorProto::DOUBLE;
    std::int64_t count = 0;
    try {
        count = element_count(c.dims);
    } catch (const Error& e) {
        throw input_error(what + ": " + e.what());
    }
    const bool external = t.data_location() == onnx::TensorProto::EXTERNAL;
    if (external || t.has_raw_data()) {
        const std::string raw = external ? external_bytes(t, model_dir, what) : t.raw_data();
        if (raw.size() != std::size_t(count) * bytes)
            throw input_error(what + " holds " + std::to_string(raw.size()) + " bytes for " + std::to_string(count) +
                              " values; the file is damaged");
        decode_bytes(t.data_type(), raw, c);
    } else {
        decode_fields(t, c);
    }
    if (std::int64_t(c.size()) != count)
        throw input_error(what + " holds " + std::to_string(c.size()) + " values, its shape needs " +
                          std::to_string(count) + "; the file is damaged");
    return c;
}

}  // namespace lf::onnx_import
