#include "layerforge/store/weights_file.h"

#include <cstring>
#include <nlohmann/json.hpp>

#include "core/json_numbers.h"
#include "layerforge/core/bfloat16.h"
#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "layerforge/core/limits.h"

namespace lf {

std::string dims_text(const std::vector<std::int64_t>& d) {
    std::string s = "(";
    for (std::size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
    return s + ")";
}

namespace {

// Bytes per element of the safetensors dtypes; 0 for a dtype this reader does not know.
std::size_t dtype_bytes(const std::string& dtype) {
    static const std::map<std::string, std::size_t> sizes{{"F64", 8}, {"I64", 8}, {"U64", 8}, {"F32", 4}, {"I32", 4},
                                                          {"U32", 4}, {"F16", 2}, {"BF16", 2}, {"I16", 2}, {"U16", 2},
                                                          {"I8", 1},  {"U8", 1},  {"BOOL", 1}};
    auto it = sizes.find(dtype);
    return it == sizes.end() ? 0 : it->second;
}

// The shape a header declares must be sane and, for a known dtype, match the bytes it points to.
void check_declared_size(const std::string& name, const SafetensorsView::Tensor& t, const std::string& origin) {
    std::int64_t elements = 1;
    for (std::int64_t d : t.shape) {
        if (d < 0 || (d > 0 && elements > kMaxTensorElements / d))
            throw input_error(origin + ": tensor '" + name + "' declares the shape " + dims_text(t.shape) +
                              ", negative or larger than " + std::to_string(kMaxTensorElements) +
                              " elements; the file is damaged");
        elements *= d;
    }
    const std::size_t unit = dtype_bytes(t.dtype);
    if (unit && std::size_t(elements) * unit != t.bytes)
        throw input_error(origin + ": tensor '" + name + "' declares the shape " + dims_text(t.shape) + " (" +
                          std::to_string(std::size_t(elements) * unit) + " bytes of " + t.dtype + ") but holds " +
                          std::to_string(t.bytes) + " bytes; the file is damaged");
}

const char* safetensors_dtype(DType t) { return t == DType::BFloat16 ? "BF16" : "F32"; }

// Whether the model can load a stored weight of this type, and which it is.
bool loadable(const std::string& dtype) { return dtype == "F32" || dtype == "BF16"; }
DType weight_dtype(const std::string& dtype) { return dtype == "BF16" ? DType::BFloat16 : DType::Float32; }

// `n` stored values of `dtype` as float32 at `dest`.
void widen(const char* data, DType dtype, std::size_t n, float* dest) {
    if (dtype == DType::Float32) {
        std::memcpy(dest, data, n * sizeof(float));
        return;
    }
    for (std::size_t i = 0; i < n; ++i)
        dest[i] = from_bfloat16(std::uint16_t(std::uint8_t(data[2 * i]) | std::uint8_t(data[2 * i + 1]) << 8));
}

}  // namespace

std::string encode_safetensors(const std::vector<TensorRef>& tensors, const std::map<std::string, std::string>& metadata,
                               DType dtype) {
    nlohmann::ordered_json header;
    if (!metadata.empty()) header["__metadata__"] = metadata;
    const std::size_t unit = dtype_size(dtype);
    std::size_t offset = 0;
    for (const TensorRef& t : tensors) {
        std::size_t bytes = t.size * unit;
        header[t.name] = {{"dtype", safetensors_dtype(dtype)}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');  // keeps the data 8-byte aligned
    std::string out;
    out.reserve(8 + text.size() + offset);
    out.resize(8);
    std::uint64_t n = text.size();
    for (int i = 0; i < 8; ++i) out[std::size_t(i)] = char((n >> (8 * i)) & 0xff);
    out += text;
    for (const TensorRef& t : tensors) {
        if (dtype == DType::Float32) {
            out.append(reinterpret_cast<const char*>(t.data), t.size * sizeof(float));
            continue;
        }
        for (std::size_t i = 0; i < t.size; ++i) {  // little-endian, as the header length
            const std::uint16_t b = to_bfloat16(t.data[i]);
            out += char(b & 0xff);
            out += char(b >> 8);
        }
    }
    return out;
}

SafetensorsView parse_safetensors(const std::string& bytes, const std::string& origin) {
    auto fail = [&](const std::string& what) { return input_error(origin + ": " + what); };
    if (bytes.size() < 8) throw fail("too short to be a weights file (safetensors)");
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | std::uint8_t(bytes[std::size_t(i)]);
    if (n > bytes.size() - 8) throw fail("the header length " + std::to_string(n) + " exceeds the file; it is truncated");
    check_json_depth(std::string_view(bytes).substr(8, n), origin + " (safetensors header)");
    nlohmann::json header = nlohmann::json::parse(bytes.begin() + 8, bytes.begin() + 8 + std::int64_t(n), nullptr, false);
    if (!header.is_object()) throw fail("the header is not a JSON object; the file is damaged");
    const std::size_t data_start = 8 + n, data_size = bytes.size() - data_start;
    SafetensorsView v;
    for (auto it = header.begin(); it != header.end(); ++it) {
        try {
            if (it.key() == "__metadata__") {
                for (auto m = it->begin(); m != it->end(); ++m)
                    if (m->is_string()) v.metadata[m.key()] = m->get<std::string>();
                continue;
            }
            SafetensorsView::Tensor t;
            t.dtype = it->at("dtype").get<std::string>();
            if (!it->at("shape").is_array() || !it->at("data_offsets").is_array())
                throw fail("tensor '" + it.key() + "' has a malformed entry; the file is damaged");
            for (const auto& d : it->at("shape")) {
                auto dim = detail::json_int64(d);
                if (!dim) throw fail("tensor '" + it.key() + "' has a shape that is not a list of integers; the file is damaged");
                t.shape.push_back(*dim);
            }
            std::vector<std::uint64_t> off;
            for (const auto& o : it->at("data_offsets")) off.push_back(detail::json_uint64(o).value_or(data_size + 1));
            if (off.size() != 2 || off[0] > off[1] || off[1] > data_size)
                throw fail("tensor '" + it.key() + "' has bad data offsets; the file is damaged");
            t.data = bytes.data() + data_start + off[0];
            t.bytes = off[1] - off[0];
            check_declared_size(it.key(), t, origin);
            v.tensors[it.key()] = std::move(t);
        } catch (const nlohmann::json::exception&) {
            throw fail("tensor '" + it.key() + "' has a malformed entry; the file is damaged");
        }
    }
    return v;
}

std::vector<TensorRef> weight_tensors(const Model& m, const float* data, const std::string& prefix) {
    std::vector<TensorRef> out;
    for (const WeightRef& w : m.weight_refs()) out.push_back({prefix + w.name, w.shape.dims, data + w.offset, w.size});
    return out;
}

std::vector<std::string> weight_differences(const Model& m, const SafetensorsView& v, const std::string& prefix) {
    std::vector<std::string> out;
    for (const WeightRef& w : m.weight_refs()) {
        auto it = v.tensors.find(prefix + w.name);
        if (it == v.tensors.end()) out.push_back(w.name + ": not saved");
        else if (!loadable(it->second.dtype))
            out.push_back(w.name + ": saved as " + it->second.dtype + ", expected F32 or BF16");
        else if (it->second.shape != w.shape.dims)
            out.push_back(w.name + ": " + dims_text(w.shape.dims) + " in the model, " + dims_text(it->second.shape) +
                          " saved");
    }
    for (const auto& [name, t] : v.tensors) {
        if (name.rfind(prefix, 0) != 0) continue;
        const std::string rest = name.substr(prefix.size());
        const bool other_section = prefix.empty() && (rest.rfind("optimizer/", 0) == 0 || rest.rfind("train/", 0) == 0);
        if (!other_section && !m.find_weight(rest)) out.push_back(rest + ": saved, not in the model");
    }
    return out;
}

std::vector<std::string> copy_weights(const Model& m, const SafetensorsView& v, float* dest, const std::string& origin,
                                      bool partial, const std::string& prefix) {
    std::vector<std::string> skipped;
    for (const WeightRef& w : m.weight_refs()) {
        auto it = v.tensors.find(prefix + w.name);
        std::string why;
        if (it == v.tensors.end()) why = "has no tensor '" + prefix + w.name + "'; it was saved from a different model";
        else if (!loadable(it->second.dtype)) why = "tensor '" + w.name + "' is \"" + it->second.dtype + "\", expected F32 or BF16";
        else if (it->second.shape != w.shape.dims)
            why = "tensor '" + w.name + "' has shape " + dims_text(it->second.shape) + " but the model needs " +
                  dims_text(w.shape.dims) + "; the model changed since these weights were saved";
        else if (it->second.bytes != w.size * dtype_size(weight_dtype(it->second.dtype)))
            why = "tensor '" + w.name + "' has bad data offsets; the file is damaged";
        if (why.empty()) {
            widen(it->second.data, weight_dtype(it->second.dtype), w.size, dest + w.offset);
        } else if (partial) {
            skipped.push_back(w.name);
        } else {
            throw input_error(origin + ": " + why);
        }
    }
    return skipped;
}

std::string encode_weights(const Model& m, const std::map<std::string, std::string>& metadata, DType dtype) {
    return encode_safetensors(weight_tensors(m, m.weights().data()), metadata, dtype);
}

void decode_weights(Model& m, const std::string& bytes, const std::string& origin) {
    copy_weights(m, parse_safetensors(bytes, origin), m.weights().data(), origin);
}

void save_weights(const Model& m, const std::string& path, const std::map<std::string, std::string>& metadata) {
    write_file_atomic(path, encode_weights(m, metadata), "weights");
}

void load_weights(Model& m, const std::string& path) { decode_weights(m, read_file(path, "weights file", kMaxWeightsFileBytes), path); }

std::map<std::string, std::string> read_weights_metadata(const std::string& path) {
    return parse_safetensors(read_file(path, "weights file", kMaxWeightsFileBytes), path).metadata;
}

}  // namespace lf
