// Netpbm: PGM and PPM, binary (P5, P6) and ASCII (P2, P3), maxval up to 65535 (scaled to 8 bits).
#include <cctype>
#include <string>

#include "data/decoders.h"
#include "layerforge/core/error.h"

namespace lf::detail {

namespace {

class Reader {
public:
    Reader(const std::uint8_t* d, std::size_t n) : d_(d), n_(n) {}
    // Next decimal number, skipping whitespace and # comments.
    long long number(const char* what) {
        for (;;) {
            while (pos_ < n_ && std::isspace(d_[pos_])) ++pos_;
            if (pos_ < n_ && d_[pos_] == '#') {
                while (pos_ < n_ && d_[pos_] != '\n') ++pos_;
                continue;
            }
            break;
        }
        if (pos_ >= n_ || !std::isdigit(d_[pos_])) throw input_error(std::string("truncated or corrupt PNM ") + what);
        long long v = 0;
        while (pos_ < n_ && std::isdigit(d_[pos_]) && v < (1LL << 40)) v = v * 10 + (d_[pos_++] - '0');
        return v;
    }
    std::size_t pos_ = 0;
    const std::uint8_t* d_;
    std::size_t n_;
};

}  // namespace

Image decode_pnm(const std::uint8_t* d, std::size_t size) {
    if (size < 3 || d[0] != 'P' || (d[1] != '2' && d[1] != '3' && d[1] != '5' && d[1] != '6'))
        throw input_error("not a PGM/PPM file (supported: P2, P3, P5, P6)");
    const bool color = d[1] == '3' || d[1] == '6', ascii = d[1] == '2' || d[1] == '3';
    Reader r(d, size);
    r.pos_ = 2;
    const long long w = r.number("width"), h = r.number("height"), maxval = r.number("maxval");
    check_dimensions(w, h, "PNM");
    if (maxval < 1 || maxval > 65535) throw input_error("PNM maxval must be 1..65535");
    // The bytes must be able to hold the declared samples before anything is allocated: a tiny
    // file must not claim a 2^28-pixel image (an ASCII sample is a digit and a separator).
    const std::size_t count = std::size_t(w) * std::size_t(h) * (color ? 3 : 1);
    const std::size_t bytes = maxval > 255 ? 2 : 1, data_at = r.pos_ + 1;
    if (data_at > size || (size - data_at) / (ascii ? 2 : bytes) < count - (ascii ? 1 : 0))
        throw input_error("truncated PNM pixel data (the header declares " + std::to_string(w) + " x " +
                          std::to_string(h) + ")");
    Image img;
    img.allocate(int(w), int(h), color ? 3 : 1);
    auto scale = [&](long long v) {
        if (v > maxval) throw input_error("PNM sample exceeds maxval");
        return std::uint8_t((v * 255 + maxval / 2) / maxval);
    };
    if (ascii) {
        for (std::size_t i = 0; i < count; ++i) img.pixels[i] = scale(r.number("pixel data"));
        return img;
    }
    std::size_t at = data_at;  // exactly one whitespace byte after maxval
    for (std::size_t i = 0; i < count; ++i, at += bytes)
        img.pixels[i] = scale(bytes == 2 ? (d[at] << 8) | d[at + 1] : d[at]);
    return img;
}

}  // namespace lf::detail
