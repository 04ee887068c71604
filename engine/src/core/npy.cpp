// .npy 1.0/2.0/3.0: magic "\x93NUMPY", version, header length (2 bytes in 1.0, 4 after), a Python
// dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded to 64 bytes.
#include "layerforge/core/npy.h"

#include <cstring>

#include "layerforge/core/error.h"

namespace lf {

namespace {

void put16(std::string& s, unsigned v) { s += char(v & 0xff), s += char((v >> 8) & 0xff); }

std::string shape_literal(const std::vector<std::int64_t>& shape) {
    std::string s = "(";
    for (auto d : shape) s += std::to_string(d) + ",";
    if (shape.size() > 1) s.pop_back();
    return s + ")";
}

// The text after `'key':` up to the next top-level comma or the closing brace.
std::string dict_value(const std::string& header, const std::string& key, const std::string& origin) {
    const std::size_t at = header.find("'" + key + "'");
    if (at == std::string::npos) throw input_error(origin + ": the .npy header has no '" + key + "'");
    std::size_t i = header.find(':', at);
    if (i == std::string::npos) throw input_error(origin + ": the .npy header is damaged near '" + key + "'");
    ++i;
    while (i < header.size() && header[i] == ' ') ++i;
    std::size_t end = i;
    if (end < header.size() && header[end] == '(') end = header.find(')', end) + 1;
    else while (end < header.size() && header[end] != ',' && header[end] != '}') ++end;
    if (end == 0 || end > header.size()) throw input_error(origin + ": the .npy header is damaged near '" + key + "'");
    return header.substr(i, end - i);
}

std::vector<std::int64_t> parse_shape(const std::string& text, const std::string& origin) {
    if (text.size() < 2 || text.front() != '(' || text.back() != ')')
        throw input_error(origin + ": the .npy shape " + text + " is not a tuple");
    std::vector<std::int64_t> shape;
    std::size_t i = 1;
    while (i < text.size() - 1) {
        while (i < text.size() - 1 && (text[i] == ' ' || text[i] == ',')) ++i;
        if (i >= text.size() - 1) break;
        std::size_t used = 0;
        long long d = 0;
        try {
            d = std::stoll(text.substr(i), &used);
        } catch (const std::exception&) {
            throw input_error(origin + ": the .npy shape " + text + " is not a tuple of sizes");
        }
        if (d < 0) throw input_error(origin + ": the .npy shape " + text + " has a negative size");
        shape.push_back(d);
        i += used;
    }
    return shape;
}

}  // namespace

std::string encode_npy(const std::vector<std::int64_t>& shape, const float* data, std::size_t count) {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape_literal(shape) + ", }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::string s = "\x93NUMPY";
    s += char(1), s += char(0);
    put16(s, unsigned(header.size()));
    s += header;
    s.append(reinterpret_cast<const char*>(data), count * sizeof(float));
    return s;
}

NpyArray decode_npy(const std::string& bytes, const std::string& origin) {
    if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
        throw input_error(origin + ": not a .npy file (numpy.save writes one)");
    const auto byte = [&](std::size_t i) { return std::size_t(static_cast<unsigned char>(bytes[i])); };
    const int major = int(byte(6));
    if (major < 1 || major > 3) throw input_error(origin + ": .npy version " + std::to_string(major) + " is not supported");
    const std::size_t len_bytes = major == 1 ? 2 : 4;
    if (bytes.size() < 8 + len_bytes) throw input_error(origin + ": the .npy header is cut short");
    std::size_t header_len = 0;
    for (std::size_t k = 0; k < len_bytes; ++k) header_len |= byte(8 + k) << (8 * k);
    const std::size_t data_at = 8 + len_bytes + header_len;
    if (data_at > bytes.size()) throw input_error(origin + ": the .npy header is cut short");
    const std::string header = bytes.substr(8 + len_bytes, header_len);
    const std::string descr = dict_value(header, "descr", origin);
    if (descr != "'<f4'" && descr != "'float32'")
        throw input_error(origin + ": the array's dtype is " + descr + "; save it as float32 (x.astype('float32'))");
    if (dict_value(header, "fortran_order", origin) != "False")
        throw input_error(origin + ": the array is in Fortran order; save a C-order array (numpy.ascontiguousarray)");
    NpyArray a;
    a.shape = parse_shape(dict_value(header, "shape", origin), origin);
    std::size_t count = 1;
    for (std::int64_t d : a.shape) {
        if (d != 0 && count > (bytes.size() / sizeof(float)) / std::size_t(d))
            throw input_error(origin + ": the .npy data is shorter than its shape needs");
        count *= std::size_t(d);
    }
    if (bytes.size() - data_at < count * sizeof(float))
        throw input_error(origin + ": the .npy data is shorter than its shape needs");
    a.data.resize(count);
    if (count) std::memcpy(a.data.data(), bytes.data() + data_at, count * sizeof(float));
    return a;
}

}  // namespace lf
