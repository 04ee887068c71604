// PNG through libpng's simplified API: palette, tRNS and gray+alpha arrive as 8-bit gray, RGB or
// RGBA without gamma changes (the output keeps the file's colour model). 16-bit files are read
// as 16-bit (the API would otherwise gamma-encode them) and keep their high byte, as PIL does.
#include <png.h>

#include <algorithm>
#include <string>
#include <vector>

#include "data/decoders.h"
#include "layerforge/core/error.h"

namespace lf::detail {

namespace {

// Frees libpng's state on every exit: a header refused by check_dimensions (or a failed
// allocation) after begin_read must not leak it. png_image_free is a no-op once finish_read freed it.
struct PngImageFree {
    png_image* png;
    ~PngImageFree() { png_image_free(png); }
};

}  // namespace

Image decode_png(const std::uint8_t* data, std::size_t size) {
    png_image png{};
    png.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&png, data, size))
        throw input_error(std::string("not a readable PNG (") + png.message + ")");
    PngImageFree free_on_exit{&png};
    check_dimensions(png.width, png.height, "PNG");
    const bool color = png.format & PNG_FORMAT_FLAG_COLOR;
    const bool alpha = png.format & PNG_FORMAT_FLAG_ALPHA;
    const bool wide = png.format & PNG_FORMAT_FLAG_LINEAR;  // 16 bits per sample
    Image img;
    img.allocate(int(png.width), int(png.height), color ? (alpha ? 4 : 3) : (alpha ? 4 : 1));
    // Gray + alpha is widened to RGBA so that one alpha path serves every format.
    png.format = img.channels == 4 ? PNG_FORMAT_RGBA : color ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
    std::vector<std::uint16_t> samples;
    if (wide) {
        png.format |= PNG_FORMAT_FLAG_LINEAR;
        samples.resize(img.pixels.size());
    }
    if (!png_image_finish_read(&png, nullptr, wide ? static_cast<void*>(samples.data()) : img.pixels.data(), 0, nullptr)) {
        std::string why = png.message;
        throw input_error("corrupt or truncated PNG (" + why + ")");
    }
    if (wide) {  // linear 16-bit output has premultiplied alpha: undo it, then keep the high byte
        const std::size_t C = std::size_t(img.channels);
        for (std::size_t i = 0; i < samples.size(); i += C) {
            const std::uint32_t a = C == 4 ? samples[i + 3] : 65535;
            for (std::size_t c = 0; c < C; ++c) {
                std::uint32_t v = samples[i + c];
                if (C == 4 && c < 3) v = a ? std::min<std::uint32_t>(65535, (v * 65535 + a / 2) / a) : 0;
                img.pixels[i + c] = std::uint8_t(v >> 8);
            }
        }
    }
    return img;
}

}  // namespace lf::detail
