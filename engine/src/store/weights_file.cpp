#include "layerforge/store/weights_file.h"

#include <cstring>
#include <nlohmann/json.hpp>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"

namespace lf {

namespace {

std::string dims_text(const std::vector<std::int64_t>& d) {  // a weight's full shape: "(784, 100)"
    std::string s = "(";
    for (std::size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
    return s + ")";
}

// The JSON header and where the data starts; throws naming origin when the framing is damaged.
std::pair<nlohmann::json, std::size_t> read_header(const std::string& bytes, const std::string& origin) {
    auto fail = [&](const std::string& what) { return input_error(origin + ": " + what); };
    if (bytes.size() < 8) throw fail("too short to be a weights file (safetensors)");
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | std::uint8_t(bytes[std::size_t(i)]);
    if (n > bytes.size() - 8) throw fail("the header length " + std::to_string(n) + " exceeds the file; it is truncated");
    nlohmann::json header = nlohmann::json::parse(bytes.begin() + 8, bytes.begin() + 8 + std::int64_t(n), nullptr, false);
    if (!header.is_object()) throw fail("the header is not a JSON object; the file is damaged");
    return {std::move(header), std::size_t(8 + n)};
}

}  // namespace

std::string encode_weights(const Model& m, const std::map<std::string, std::string>& metadata) {
    nlohmann::ordered_json header;
    if (!metadata.empty()) header["__metadata__"] = metadata;
    std::size_t offset = 0;
    for (const WeightRef& w : m.weight_refs()) {
        std::size_t bytes = w.size * sizeof(float);
        header[w.name] = {{"dtype", "F32"}, {"shape", w.shape.dims}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');  // keeps the data 8-byte aligned
    std::string out(8, '\0');
    std::uint64_t n = text.size();
    for (int i = 0; i < 8; ++i) out[std::size_t(i)] = char((n >> (8 * i)) & 0xff);
    out += text;
    for (const WeightRef& w : m.weight_refs())
        out.append(reinterpret_cast<const char*>(m.weights().data() + w.offset), w.size * sizeof(float));
    return out;
}

void decode_weights(Model& m, const std::string& bytes, const std::string& origin) {
    auto fail = [&](const std::string& what) { return input_error(origin + ": " + what); };
    const auto [header, data_start] = read_header(bytes, origin);
    const std::size_t data_size = bytes.size() - data_start;
    for (const WeightRef& w : m.weight_refs()) {
        auto it = header.find(w.name);
        if (it == header.end()) throw fail("has no tensor '" + w.name + "'; it was saved from a different model");
        try {
            if (it->at("dtype") != "F32") throw fail("tensor '" + w.name + "' is " + it->at("dtype").dump() + ", expected F32");
            auto shape = it->at("shape").get<std::vector<std::int64_t>>();
            if (shape != w.shape.dims)
                throw fail("tensor '" + w.name + "' has shape " + dims_text(shape) + " but the model needs " +
                           dims_text(w.shape.dims) + "; the model changed since these weights were saved");
            auto off = it->at("data_offsets").get<std::vector<std::uint64_t>>();
            if (off.size() != 2 || off[0] > off[1] || off[1] > data_size || off[1] - off[0] != w.size * sizeof(float))
                throw fail("tensor '" + w.name + "' has bad data offsets; the file is damaged");
            std::memcpy(m.weights().data() + w.offset, bytes.data() + data_start + off[0], w.size * sizeof(float));
        } catch (const nlohmann::json::exception&) {
            throw fail("tensor '" + w.name + "' has a malformed entry; the file is damaged");
        }
    }
}

void save_weights(const Model& m, const std::string& path, const std::map<std::string, std::string>& metadata) {
    write_file_atomic(path, encode_weights(m, metadata), "weights");
}

void load_weights(Model& m, const std::string& path) { decode_weights(m, read_file(path, "weights file"), path); }

std::map<std::string, std::string> read_weights_metadata(const std::string& path) {
    const auto [header, data_start] = read_header(read_file(path, "weights file"), path);
    std::map<std::string, std::string> out;
    if (header.contains("__metadata__") && header["__metadata__"].is_object())
        for (const auto& [k, v] : header["__metadata__"].items())
            if (v.is_string()) out[k] = v.get<std::string>();
    return out;
}

}  // namespace lf
