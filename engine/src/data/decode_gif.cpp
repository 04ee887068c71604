// GIF through giflib: the first frame, drawn onto the logical screen (background colour behind
// a smaller frame); transparent pixels get alpha 0.
#include <gif_lib.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "data/decoders.h"
#include "layerforge/core/error.h"

namespace lf::detail {

namespace {

struct Source {
    const std::uint8_t* data;
    std::size_t size, pos = 0;
};

int read_memory(GifFileType* gif, GifByteType* dst, int n) {
    auto* s = static_cast<Source*>(gif->UserData);
    const std::size_t k = std::min<std::size_t>(std::size_t(n), s->size - s->pos);
    std::memcpy(dst, s->data + s->pos, k);
    s->pos += k;
    return int(k);
}

struct Closer {
    GifFileType* gif;
    ~Closer() {
        int err = 0;
        if (gif) DGifCloseFile(gif, &err);
    }
};

// The screen and the frame are allocated before a byte of pixel data is read, so a few hundred
// bytes could otherwise make us fill a 32-megapixel canvas. One byte of LZW codes (3 bits or more
// each) expands to at most 8/3 strings of at most 4096 pixels; and a real GIF's first frame is not
// a speck on a screen of many megapixels.
void refuse_implausible_frame(const GifImageDesc& frame, int screen_w, int screen_h, std::size_t bytes_left) {
    const double frame_pixels = double(frame.Width) * double(frame.Height);
    const double screen_pixels = double(screen_w) * double(screen_h);
    const std::string sizes = std::to_string(frame.Width) + " x " + std::to_string(frame.Height) + " frame";
    if (frame_pixels > (double(bytes_left) * 8 / 3 + 1) * 4096)
        throw input_error("truncated GIF: " + std::to_string(bytes_left) + " bytes cannot hold a " + sizes);
    if (screen_pixels > double(1 << 22) && screen_pixels > 16 * frame_pixels)
        throw input_error("implausible GIF: a " + sizes + " on a " + std::to_string(screen_w) + " x " +
                          std::to_string(screen_h) + " screen");
}

}  // namespace

Image decode_gif(const std::uint8_t* data, std::size_t size) {
    Source src{data, size};
    int err = 0;
    GifFileType* gif = DGifOpen(&src, read_memory, &err);
    if (!gif) throw input_error(std::string("not a readable GIF (") + GifErrorString(err) + ")");
    Closer closer{gif};
    check_dimensions(gif->SWidth, gif->SHeight, "GIF");
    // Reads records until the first image; extensions before it carry the transparent index.
    int transparent = -1;
    GifRecordType type;
    for (;;) {
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) throw input_error("corrupt or truncated GIF");
        if (type == TERMINATE_RECORD_TYPE) throw input_error("GIF holds no image");
        if (type == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType* ext = nullptr;
            if (DGifGetExtension(gif, &code, &ext) == GIF_ERROR) throw input_error("corrupt GIF extension");
            while (ext) {
                if (code == GRAPHICS_EXT_FUNC_CODE && ext[0] >= 4 && (ext[1] & 1)) transparent = ext[4];
                if (DGifGetExtensionNext(gif, &ext) == GIF_ERROR) throw input_error("corrupt GIF extension");
                code = 0;
            }
        } else if (type == IMAGE_DESC_RECORD_TYPE) {
            break;
        }
    }
    if (DGifGetImageDesc(gif) == GIF_ERROR) throw input_error("corrupt GIF image descriptor");
    const GifImageDesc& desc = gif->Image;
    const ColorMapObject* map = desc.ColorMap ? desc.ColorMap : gif->SColorMap;
    if (!map) throw input_error("GIF has no colour table");
    const int W = gif->SWidth, H = gif->SHeight;
    if (desc.Left < 0 || desc.Top < 0 || desc.Width <= 0 || desc.Height <= 0 || desc.Left + desc.Width > W ||
        desc.Top + desc.Height > H)
        throw input_error("GIF frame lies outside the screen");
    refuse_implausible_frame(desc, W, H, src.size - src.pos);
    std::vector<GifPixelType> indices(std::size_t(desc.Width) * std::size_t(desc.Height));
    if (desc.Interlace) {
        static const int start[] = {0, 4, 2, 1}, step[] = {8, 8, 4, 2};
        for (int pass = 0; pass < 4; ++pass)
            for (int y = start[pass]; y < desc.Height; y += step[pass])
                if (DGifGetLine(gif, indices.data() + std::size_t(y) * std::size_t(desc.Width), desc.Width) == GIF_ERROR)
                    throw input_error("corrupt or truncated GIF");
    } else {
        for (int y = 0; y < desc.Height; ++y)
            if (DGifGetLine(gif, indices.data() + std::size_t(y) * std::size_t(desc.Width), desc.Width) == GIF_ERROR)
                throw input_error("corrupt or truncated GIF");
    }
    const bool alpha = transparent >= 0;
    Image img;
    img.allocate(W, H, alpha ? 4 : 3);
    // Outside the frame: transparent if the GIF has transparency, else the background colour.
    const GifColorType bg = (gif->SColorMap && gif->SBackGroundColor < gif->SColorMap->ColorCount)
                                ? gif->SColorMap->Colors[gif->SBackGroundColor]
                                : GifColorType{0, 0, 0};
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            std::uint8_t* p = img.row(y) + std::size_t(x) * std::size_t(img.channels);
            p[0] = bg.Red, p[1] = bg.Green, p[2] = bg.Blue;
            if (alpha) p[3] = 0;
        }
    for (int y = 0; y < desc.Height; ++y)
        for (int x = 0; x < desc.Width; ++x) {
            const int index = indices[std::size_t(y) * std::size_t(desc.Width) + std::size_t(x)];
            std::uint8_t* p = img.row(desc.Top + y) + std::size_t(desc.Left + x) * std::size_t(img.channels);
            if (index == transparent) continue;
            const GifColorType c = index < map->ColorCount ? map->Colors[index] : GifColorType{0, 0, 0};
            p[0] = c.Red, p[1] = c.Green, p[2] = c.Blue;
            if (alpha) p[3] = 255;
        }
    return img;
}

}  // namespace lf::detail
