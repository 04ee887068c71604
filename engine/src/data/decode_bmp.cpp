// Windows BMP: BITMAPINFOHEADER and later (V4/V5), 1/4/8-bit palette, 16/24/32-bit BI_RGB and
// BI_BITFIELDS, bottom-up or top-down rows. RLE-compressed BMPs are reported as unsupported.
#include <cstring>
#include <string>
#include <vector>

#include "data/decoders.h"
#include "layerforge/core/error.h"

namespace lf::detail {

namespace {

std::uint32_t u32(const std::uint8_t* p) { return p[0] | (p[1] << 8) | (p[2] << 16) | (std::uint32_t(p[3]) << 24); }
std::uint16_t u16(const std::uint8_t* p) { return std::uint16_t(p[0] | (p[1] << 8)); }

// Extracts a BI_BITFIELDS channel and scales it to 8 bits.
struct Field {
    std::uint32_t mask = 0;
    int shift = 0, bits = 0;
    explicit Field(std::uint32_t m) : mask(m) {
        if (!m) return;
        while (!((m >> shift) & 1)) ++shift;
        while (bits < 32 - shift && ((m >> (shift + bits)) & 1)) ++bits;
    }
    std::uint8_t get(std::uint32_t v) const {
        if (!mask) return 255;
        const std::uint32_t x = (v & mask) >> shift, max = (bits >= 32) ? 0xffffffffu : ((1u << bits) - 1);
        return std::uint8_t((std::uint64_t(x) * 255 + max / 2) / max);
    }
};

}  // namespace

Image decode_bmp(const std::uint8_t* d, std::size_t size) {
    if (size < 26 || d[0] != 'B' || d[1] != 'M') throw input_error("not a BMP file (bad signature)");
    const std::uint32_t offset = u32(d + 10), header = u32(d + 14);
    if (header < 40 || 14 + std::size_t(header) > size) throw input_error("unsupported or truncated BMP header");
    const long long width = std::int32_t(u32(d + 18));
    long long height = std::int32_t(u32(d + 22));
    const int bpp = u16(d + 28);
    const std::uint32_t compression = u32(d + 30);
    const bool top_down = height < 0;
    if (top_down) height = -height;
    check_dimensions(width, height, "BMP");
    if (compression != 0 && compression != 3)
        throw input_error("unsupported BMP compression " + std::to_string(compression) + " (only uncompressed)");
    if (bpp != 1 && bpp != 4 && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32)
        throw input_error("unsupported BMP bit depth " + std::to_string(bpp));

    std::uint32_t masks[4] = {0, 0, 0, 0};
    bool has_alpha = false;
    if (compression == 3) {
        const std::size_t at = header >= 52 ? 14 + 40 : 14 + std::size_t(header);  // V2+ header, or masks after it
        if (at + 12 > size) throw input_error("truncated BMP bit-field masks");
        for (int i = 0; i < 3; ++i) masks[i] = u32(d + at + 4 * std::size_t(i));
        if (header >= 56) masks[3] = u32(d + 14 + 52);
    } else if (bpp == 16) {
        masks[0] = 0x7c00, masks[1] = 0x03e0, masks[2] = 0x001f;
    } else if (bpp >= 24) {  // BI_RGB: B, G, R (and an unused byte, as PIL reads it)
        masks[0] = 0x00ff0000, masks[1] = 0x0000ff00, masks[2] = 0x000000ff;
    }
    has_alpha = masks[3] != 0;

    std::vector<std::uint8_t> palette;  // RGB triples
    if (bpp <= 8) {
        std::uint32_t colors = u32(d + 46);
        if (colors == 0 || colors > (1u << bpp)) colors = 1u << bpp;
        const std::size_t at = 14 + std::size_t(header);
        if (at + colors * 4 > size) throw input_error("truncated BMP palette");
        palette.resize(std::size_t(1) << bpp, 0);
        palette.resize(palette.size() * 3, 0);
        for (std::uint32_t i = 0; i < colors; ++i)
            for (int c = 0; c < 3; ++c) palette[i * 3 + std::size_t(c)] = d[at + i * 4 + std::size_t(2 - c)];
    }

    const std::size_t stride = ((std::size_t(width) * std::size_t(bpp) + 31) / 32) * 4;
    if (offset > size || std::size_t(height) * stride > size - offset) throw input_error("truncated BMP pixel data");
    const Field fields[4] = {Field(masks[0]), Field(masks[1]), Field(masks[2]), Field(masks[3])};
    Image img;
    img.allocate(int(width), int(height), has_alpha ? 4 : 3);
    for (long long y = 0; y < height; ++y) {
        const std::uint8_t* src = d + offset + std::size_t(top_down ? y : height - 1 - y) * stride;
        std::uint8_t* out = img.row(int(y));
        for (long long x = 0; x < width; ++x, out += img.channels) {
            if (bpp <= 8) {
                const std::size_t bit = std::size_t(x) * std::size_t(bpp);
                const unsigned index = (src[bit / 8] >> (8 - bpp - bit % 8)) & ((1u << bpp) - 1);
                std::memcpy(out, &palette[index * 3], 3);
            } else {
                std::uint32_t v = 0;
                if (bpp == 16) v = u16(src + x * 2);
                else if (bpp == 24) v = src[x * 3] | (src[x * 3 + 1] << 8) | (std::uint32_t(src[x * 3 + 2]) << 16);
                else v = u32(src + x * 4);
                for (int c = 0; c < img.channels; ++c) out[c] = fields[c].get(v);
            }
        }
    }
    return img;
}

}  // namespace lf::detail
