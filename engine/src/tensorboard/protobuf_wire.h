#pragma once
// Protocol buffers' wire format, the few pieces an Event needs
// (https://protobuf.dev/programming-guides/encoding/).
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "layerforge/core/error.h"

namespace lf::tensorboard::wire {

enum Type : int { Varint = 0, Fixed64 = 1, Bytes = 2, Fixed32 = 5 };

inline void put_varint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(char(v | 0x80));
        v >>= 7;
    }
    out.push_back(char(v));
}
inline void put_key(std::string& out, int field, Type type) { put_varint(out, std::uint64_t(field) << 3 | type); }
inline void put_fixed(std::string& out, const void* v, std::size_t n) {  // little-endian hosts
    out.append(static_cast<const char*>(v), n);
}
inline void put_bytes(std::string& out, int field, std::string_view b) {
    put_key(out, field, Bytes);
    put_varint(out, b.size());
    out.append(b);
}

// Reads one message's fields in order; every read checks the bounds and throws lf::Error (Input).
class Reader {
public:
    Reader(std::string_view bytes, const char* what) : p_(bytes), what_(what) {}
    bool done() const { return pos_ == p_.size(); }
    // The next field's number and wire type.
    std::pair<int, int> key() {
        const std::uint64_t k = varint();
        if ((k >> 3) == 0 || (k >> 3) > 0x1fffffff) fail("a field number of 0 or out of range");
        return {int(k >> 3), int(k & 7)};
    }
    std::uint64_t varint() {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos_ >= p_.size()) fail("a varint cut off by the end");
            const auto b = static_cast<unsigned char>(p_[pos_++]);
            v |= std::uint64_t(b & 0x7f) << shift;
            if (!(b & 0x80)) return v;
        }
        fail("a varint longer than 10 bytes");
    }
    std::string_view bytes() {
        const std::uint64_t n = varint();
        if (n > p_.size() - pos_) fail("a length-delimited field longer than what is left");
        const std::string_view b = p_.substr(pos_, n);
        pos_ += n;
        return b;
    }
    template <class T>
    T fixed() {
        static_assert(sizeof(T) == 4 || sizeof(T) == 8);
        if (p_.size() - pos_ < sizeof(T)) fail("a fixed-size field cut off by the end");
        T v;
        std::memcpy(&v, p_.data() + pos_, sizeof(T));
        pos_ += sizeof(T);
        return v;
    }
    void skip(int type) {
        switch (type) {
        case Varint: varint(); return;
        case Fixed64: fixed<std::uint64_t>(); return;
        case Bytes: bytes(); return;
        case Fixed32: fixed<std::uint32_t>(); return;
        default: fail("wire type " + std::to_string(type) + ", which no field of it has");
        }
    }
    void expect(int type, int wanted, const char* field) {
        if (type != wanted) fail(std::string("field ") + field + " with wire type " + std::to_string(type));
    }
    [[noreturn]] void fail(const std::string& why) const {
        throw input_error(std::string("malformed ") + what_ + ": " + why + " (at byte " + std::to_string(pos_) + ")");
    }

private:
    std::string_view p_;
    std::size_t pos_ = 0;
    const char* what_;
};

}  // namespace lf::tensorboard::wire
