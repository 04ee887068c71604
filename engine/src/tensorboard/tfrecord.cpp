#include "layerforge/tensorboard/tfrecord.h"

#include "layerforge/tensorboard/crc32c.h"

namespace lf::tensorboard {

namespace {

void put_le(std::string& out, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

std::uint64_t get_le(const char* p, int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= std::uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
    return v;
}

}  // namespace

void append_record(std::string& out, std::string_view data) {
    const std::size_t start = out.size();
    put_le(out, data.size(), 8);
    put_le(out, masked_crc32c(std::string_view(out).substr(start, 8)), 4);
    out.append(data);
    put_le(out, masked_crc32c(data), 4);
}

std::optional<std::string_view> RecordReader::next() {
    if (!error_.empty() || offset_ == bytes_.size()) return std::nullopt;
    const std::string_view rest = bytes_.substr(offset_);
    if (rest.size() < 12) {
        error_ = "truncated record header (" + std::to_string(rest.size()) + " of 12 bytes)";
        return std::nullopt;
    }
    if (get_le(rest.data() + 8, 4) != masked_crc32c(rest.substr(0, 8))) {
        error_ = "the record's length fails its CRC-32C check";
        return std::nullopt;
    }
    const std::uint64_t length = get_le(rest.data(), 8);
    if (rest.size() < 16 || length > rest.size() - 16) {
        error_ = "truncated record: " + std::to_string(length) + " bytes of data announced, " +
                 std::to_string(rest.size() < 16 ? 0 : rest.size() - 16) + " present";
        return std::nullopt;
    }
    const std::string_view data = rest.substr(12, length);
    if (get_le(rest.data() + 12 + length, 4) != masked_crc32c(data)) {
        error_ = "the record's data fails its CRC-32C check";
        return std::nullopt;
    }
    offset_ += 16 + length;
    return data;
}

}  // namespace lf::tensorboard
