// Format detection, the dispatch to one decoder per format, and conversion to the model's channels.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>

#include "data/decoders.h"
#include "layerforge/core/error.h"
#include "layerforge/data/image.h"

namespace lf {

namespace detail {

void check_dimensions(long long width, long long height, const char* format) {
    constexpr long long kMaxSide = 1 << 16, kMaxPixels = 1LL << 28;
    if (width <= 0 || height <= 0 || width > kMaxSide || height > kMaxSide || width * height > kMaxPixels)
        throw input_error(std::string("implausible ") + format + " size " + std::to_string(width) + " x " +
                          std::to_string(height));
}

}  // namespace detail

const char* to_string(ImageFormat f) {
    switch (f) {
        case ImageFormat::Png: return "PNG";
        case ImageFormat::Jpeg: return "JPEG";
        case ImageFormat::Bmp: return "BMP";
        case ImageFormat::Gif: return "GIF";
        case ImageFormat::Pnm: return "PNM";
        default: return "unknown";
    }
}

ImageFormat format_from_extension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == ".png") return ImageFormat::Png;
    if (ext == ".jpg" || ext == ".jpeg" || ext == ".jpe" || ext == ".jfif") return ImageFormat::Jpeg;
    if (ext == ".bmp") return ImageFormat::Bmp;
    if (ext == ".gif") return ImageFormat::Gif;
    if (ext == ".ppm" || ext == ".pgm" || ext == ".pnm") return ImageFormat::Pnm;
    return ImageFormat::Unknown;
}

ImageFormat sniff_format(const std::uint8_t* d, std::size_t n) {
    if (n >= 8 && d[0] == 0x89 && d[1] == 'P' && d[2] == 'N' && d[3] == 'G') return ImageFormat::Png;
    if (n >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff) return ImageFormat::Jpeg;
    if (n >= 2 && d[0] == 'B' && d[1] == 'M') return ImageFormat::Bmp;
    if (n >= 6 && d[0] == 'G' && d[1] == 'I' && d[2] == 'F' && d[3] == '8') return ImageFormat::Gif;
    if (n >= 2 && d[0] == 'P' && (d[1] == '2' || d[1] == '3' || d[1] == '5' || d[1] == '6')) return ImageFormat::Pnm;
    return ImageFormat::Unknown;
}

Image decode_image(const std::uint8_t* data, std::size_t size, const DecodeOptions& opts) {
    if (size == 0) throw input_error("empty file (0 bytes)");
    Image img;
    switch (sniff_format(data, size)) {
        case ImageFormat::Png: img = detail::decode_png(data, size); break;
        case ImageFormat::Jpeg: {
            const int orientation = opts.apply_exif_orientation ? jpeg_exif_orientation(data, size) : 1;
            img = apply_orientation(detail::decode_jpeg(data, size, orientation, opts.min_scale), orientation);
            break;
        }
        case ImageFormat::Bmp: img = detail::decode_bmp(data, size); break;
        case ImageFormat::Gif: img = detail::decode_gif(data, size); break;
        case ImageFormat::Pnm: img = detail::decode_pnm(data, size); break;
        default: throw input_error("not an image (unrecognised content; PNG, JPEG, BMP, GIF and PPM are read)");
    }
    if (opts.channels && img.channels != opts.channels)
        img = convert_channels(std::move(img), opts.channels, opts.composite_alpha, opts.background);
    return img;
}

Image read_image(const std::string& path, const DecodeOptions& opts) {
    const std::vector<std::uint8_t> bytes = read_file_bytes(path);
    try {
        return decode_image(bytes.data(), bytes.size(), opts);
    } catch (const Error& e) {
        throw Error(e.kind(), path + ": " + e.what());
    }
}

Image convert_channels(Image img, int channels, bool composite_alpha, std::array<std::uint8_t, 3> bg) {
    if (channels != 1 && channels != 3) throw input_error("images can be converted to 1 or 3 channels only");
    if (img.channels == channels) return img;
    Image out;
    out.allocate(img.width, img.height, channels);
    const std::size_t n = std::size_t(img.width) * std::size_t(img.height);
    const std::uint8_t* s = img.pixels.data();
    std::uint8_t* d = out.pixels.data();
    for (std::size_t i = 0; i < n; ++i, s += img.channels, d += channels) {
        unsigned r = s[0], g = s[img.channels >= 3 ? 1 : 0], b = s[img.channels >= 3 ? 2 : 0];
        if (img.channels == 4 && composite_alpha) {
            const unsigned a = s[3];
            r = (r * a + bg[0] * (255 - a) + 127) / 255;
            g = (g * a + bg[1] * (255 - a) + 127) / 255;
            b = (b * a + bg[2] * (255 - a) + 127) / 255;
        }
        if (channels == 1) {
            d[0] = std::uint8_t((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16);
        } else {
            d[0] = std::uint8_t(r), d[1] = std::uint8_t(g), d[2] = std::uint8_t(b);
        }
    }
    return out;
}

}  // namespace lf
