#pragma once
// Decoded 8-bit images and the decoders for PNG, JPEG, BMP, GIF (first frame) and PPM/PGM.
// Every failure is an lf::Error (Input) whose message says what is wrong with the bytes; callers
// add the file's path.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lf {

struct Image {
    int width = 0, height = 0, channels = 0;  // channels: 1 gray, 3 RGB, 4 RGBA (interleaved, row-major)
    std::vector<std::uint8_t> pixels;
    std::uint8_t* row(int y) { return pixels.data() + std::size_t(y) * std::size_t(width) * std::size_t(channels); }
    const std::uint8_t* row(int y) const {
        return pixels.data() + std::size_t(y) * std::size_t(width) * std::size_t(channels);
    }
    void allocate(int w, int h, int c) {
        width = w, height = h, channels = c;
        pixels.assign(std::size_t(w) * std::size_t(h) * std::size_t(c), 0);
    }
};

enum class ImageFormat { Unknown, Png, Jpeg, Bmp, Gif, Pnm };
const char* to_string(ImageFormat f);
ImageFormat format_from_extension(const std::string& path);  // any case: .png .jpg .jpeg .bmp .gif .ppm .pgm .pnm
ImageFormat sniff_format(const std::uint8_t* data, std::size_t size);  // by magic bytes

struct DecodeOptions {
    int channels = 0;  // 0: as decoded (1 gray, 3 RGB, 4 RGBA); 1 or 3 converts (alpha handled below)
    bool composite_alpha = false;            // false: alpha dropped; true: blended onto `background`
    std::array<std::uint8_t, 3> background{255, 255, 255};
    // JPEG DCT scaling: given the upright full size, returns the factor the caller will resize
    // by; the decoder picks the smallest libjpeg-turbo scale (1/2, 1/4, ...) not below it.
    std::function<double(int width, int height)> min_scale;
    bool apply_exif_orientation = true;
};

// Decodes bytes whose format is sniffed from the content (the extension is not trusted).
Image decode_image(const std::uint8_t* data, std::size_t size, const DecodeOptions& opts = {});
// Reads and decodes a file; errors name the path.
Image read_image(const std::string& path, const DecodeOptions& opts = {});
// The whole file under core/file_io's open policy (a regular file of at most kMaxImageFileBytes);
// errors name the path.
std::vector<std::uint8_t> read_file_bytes(const std::string& path);

// Gray/RGB/RGBA -> 1 or 3 channels (ITU-R 601 luma with PIL's rounding for RGB -> gray).
Image convert_channels(Image img, int channels, bool composite_alpha, std::array<std::uint8_t, 3> background);
// Rotates/flips pixels so an image with EXIF orientation 1..8 displays upright.
Image apply_orientation(Image img, int orientation);
// EXIF orientation (1..8) from a JPEG's APP1 segment; 1 when absent or unreadable.
int jpeg_exif_orientation(const std::uint8_t* data, std::size_t size);

// Encodes 8-bit gray, RGB or RGBA as PNG (zlib level `level`).
std::vector<std::uint8_t> encode_png(const Image& img, int level = 6);
// Temp file + rename, without core/file_io's fsync: importing 70,000 images must not sync each.
void write_file_bytes(const std::string& path, const std::vector<std::uint8_t>& bytes);

}  // namespace lf
