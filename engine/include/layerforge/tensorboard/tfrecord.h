#pragma once
// TFRecord framing, the container of TensorBoard event files: per record a uint64 length
// (little-endian), the masked CRC-32C of those 8 bytes, the data, the masked CRC-32C of the data.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lf::tensorboard {

// Appends one framed record to `out`.
void append_record(std::string& out, std::string_view data);

// Walks the records of a file's bytes. next() gives each record's data (a view into the bytes)
// until the end, or stops at damage: then error() says what, at byte offset(), and next() keeps
// returning nothing (nothing after damage is trusted; the records before it are).
class RecordReader {
public:
    explicit RecordReader(std::string_view bytes) : bytes_(bytes) {}
    std::optional<std::string_view> next();
    std::uint64_t offset() const { return offset_; }  // of the record next() returns next, or of the damage
    const std::string& error() const { return error_; }

private:
    std::string_view bytes_;
    std::uint64_t offset_ = 0;
    std::string error_;
};

}  // namespace lf::tensorboard
