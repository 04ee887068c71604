// PNG through libpng's simplified API: palette, tRNS, 16-bit and gray+alpha all arrive as 8-bit
// gray, RGB or RGBA without gamma changes (the output keeps the file's colour model).
#include <png.h>

#include <string>

#include "data/decoders.h"
#include "layerforge/core/error.h"

namespace lf::detail {

Image decode_png(const std::uint8_t* data, std::size_t size) {
    png_image png{};
    png.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&png, data, size))
        throw input_error(std::string("not a readable PNG (") + png.message + ")");
    check_dimensions(png.width, png.height, "PNG");
    const bool color = png.format & PNG_FORMAT_FLAG_COLOR;
    const bool alpha = png.format & PNG_FORMAT_FLAG_ALPHA;
    Image img;
    img.allocate(int(png.width), int(png.height), color ? (alpha ? 4 : 3) : (alpha ? 4 : 1));
    // Gray + alpha is widened to RGBA so that one alpha path serves every format.
    png.format = img.channels == 4 ? PNG_FORMAT_RGBA : color ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
    if (!png_image_finish_read(&png, nullptr, img.pixels.data(), 0, nullptr)) {
        std::string why = png.message;
        png_image_free(&png);
        throw input_error("corrupt or truncated PNG (" + why + ")");
    }
    return img;
}

}  // namespace lf::detail
