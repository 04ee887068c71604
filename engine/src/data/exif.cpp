// EXIF orientation: tag 0x0112 in IFD0 of the APP1 "Exif" segment, and the pixel moves that undo it.
#include <string>

#include "layerforge/data/image.h"

namespace lf {

int jpeg_exif_orientation(const std::uint8_t* d, std::size_t n) {
    std::size_t pos = 2;  // after SOI
    while (pos + 4 <= n && d[pos] == 0xff) {
        const std::uint8_t marker = d[pos + 1];
        if (marker == 0xda || marker == 0xd9) break;  // start of scan / end: no EXIF before the data
        const std::size_t len = (std::size_t(d[pos + 2]) << 8) | d[pos + 3];
        if (len < 2 || pos + 2 + len > n) break;
        const std::uint8_t* seg = d + pos + 4;
        const std::size_t seg_len = len - 2;
        if (marker == 0xe1 && seg_len >= 14 && std::string(reinterpret_cast<const char*>(seg), 6) == std::string("Exif\0\0", 6)) {
            const std::uint8_t* t = seg + 6;  // TIFF header
            const std::size_t tn = seg_len - 6;
            const bool le = t[0] == 'I' && t[1] == 'I';
            if (!le && !(t[0] == 'M' && t[1] == 'M')) return 1;
            auto u16 = [&](std::size_t at) -> unsigned {
                return le ? t[at] | (t[at + 1] << 8) : (t[at] << 8) | t[at + 1];
            };
            auto u32 = [&](std::size_t at) -> std::size_t { return le ? u16(at) | (std::size_t(u16(at + 2)) << 16) : (std::size_t(u16(at)) << 16) | u16(at + 2); };
            const std::size_t ifd = u32(4);
            if (ifd + 2 > tn) return 1;
            const unsigned entries = u16(ifd);
            for (unsigned i = 0; i < entries; ++i) {
                const std::size_t e = ifd + 2 + std::size_t(i) * 12;
                if (e + 12 > tn) return 1;
                if (u16(e) == 0x0112) {
                    const unsigned v = u16(e + 8);
                    return v >= 1 && v <= 8 ? int(v) : 1;
                }
            }
            return 1;
        }
        pos += 2 + len;
    }
    return 1;
}

Image apply_orientation(Image img, int orientation) {
    if (orientation <= 1 || orientation > 8) return img;
    const bool swap = orientation >= 5;  // 5..8 transpose the axes
    Image out;
    out.allocate(swap ? img.height : img.width, swap ? img.width : img.height, img.channels);
    const int W = img.width, H = img.height, C = img.channels;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            int ox = x, oy = y;  // where source (x, y) lands in the upright image
            switch (orientation) {
                case 2: ox = W - 1 - x; break;                     // mirror horizontal
                case 3: ox = W - 1 - x, oy = H - 1 - y; break;     // rotate 180
                case 4: oy = H - 1 - y; break;                     // mirror vertical
                case 5: ox = y, oy = x; break;                     // transpose
                case 6: ox = H - 1 - y, oy = x; break;             // rotate 90 clockwise
                case 7: ox = H - 1 - y, oy = W - 1 - x; break;     // transverse
                case 8: ox = y, oy = W - 1 - x; break;             // rotate 270 clockwise
            }
            const std::uint8_t* s = img.row(y) + std::size_t(x) * std::size_t(C);
            std::uint8_t* d = out.row(oy) + std::size_t(ox) * std::size_t(C);
            for (int c = 0; c < C; ++c) d[c] = s[c];
        }
    return out;
}

}  // namespace lf
