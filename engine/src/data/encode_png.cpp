// PNG encoding through libpng's classic API (the simplified one cannot set the zlib level).
#include <png.h>

#include <csetjmp>

#include "layerforge/core/error.h"
#include "layerforge/data/image.h"

namespace lf {

namespace {

void append(png_structp png, png_bytep data, png_size_t n) {
    auto* out = static_cast<std::vector<std::uint8_t>*>(png_get_io_ptr(png));
    out->insert(out->end(), data, data + n);
}

}  // namespace

std::vector<std::uint8_t> encode_png(const Image& img, int level) {
    if (img.channels != 1 && img.channels != 3 && img.channels != 4) throw input_error("PNG: unsupported channels");
    std::vector<std::uint8_t> out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!info) {
        png_destroy_write_struct(&png, nullptr);
        throw runtime_error("PNG: out of memory");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        throw runtime_error("PNG: encoding failed");
    }
    png_set_write_fn(png, &out, append, nullptr);
    png_set_compression_level(png, level);
    const int type = img.channels == 1 ? PNG_COLOR_TYPE_GRAY : img.channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA;
    png_set_IHDR(png, info, png_uint_32(img.width), png_uint_32(img.height), 8, type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < img.height; ++y) png_write_row(png, const_cast<png_bytep>(img.row(y)));
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    return out;
}

}  // namespace lf
