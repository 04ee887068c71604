// JPEG through libjpeg-turbo's TurboJPEG API. Downsizing callers get the DCT-domain scaling
// (1/2, 1/4, 1/8, ...) that keeps at least the requested size; CMYK (Adobe, inverted) becomes RGB.
#include <turbojpeg.h>

#include <string>

#include "data/decoders.h"
#include "layerforge/core/error.h"

namespace lf::detail {

namespace {

// One decompressor per thread: creating it costs more than decoding a small JPEG. After an
// error the handle is replaced: a failed decode leaves state behind that breaks the next header.
struct Handle {
    tjhandle h = tjInitDecompress();
    ~Handle() {
        if (h) tjDestroy(h);
    }
};

thread_local Handle handle;

tjhandle thread_handle() {
    if (!handle.h) throw runtime_error("cannot initialise libjpeg-turbo");
    return handle.h;
}

Error failure(const std::string& what) {
    const std::string why = tjGetErrorStr2(handle.h);
    tjDestroy(handle.h);
    handle.h = tjInitDecompress();
    return input_error(what + " (" + why + ")");
}

tjscalingfactor pick_scale(int width, int height, double min_scale) {
    tjscalingfactor best{1, 1};
    if (!(min_scale > 0 && min_scale < 1)) return best;
    int n = 0;
    const tjscalingfactor* factors = tjGetScalingFactors(&n);
    for (int i = 0; i < n; ++i) {
        const tjscalingfactor f = factors[i];
        const double s = double(f.num) / f.denom;
        if (s > 1 || s < min_scale) continue;
        // The scaled size must still cover min_scale times the full size on both axes.
        if (TJSCALED(width, f) < min_scale * width || TJSCALED(height, f) < min_scale * height) continue;
        if (s < double(best.num) / best.denom) best = f;
    }
    return best;
}

}  // namespace

Image decode_jpeg(const std::uint8_t* data, std::size_t size, int orientation,
                  const std::function<double(int, int)>& min_scale) {
    tjhandle tj = thread_handle();
    int width = 0, height = 0, subsamp = 0, colorspace = 0;
    auto* src = const_cast<unsigned char*>(data);
    if (tjDecompressHeader3(tj, src, static_cast<unsigned long>(size), &width, &height, &subsamp, &colorspace) != 0)
        throw failure("not a readable JPEG");
    check_dimensions(width, height, "JPEG");
    const bool swap = orientation >= 5;
    const tjscalingfactor f =
        min_scale ? pick_scale(width, height, swap ? min_scale(height, width) : min_scale(width, height))
                  : tjscalingfactor{1, 1};
    const int w = TJSCALED(width, f), h = TJSCALED(height, f);
    const bool cmyk = colorspace == TJCS_CMYK || colorspace == TJCS_YCCK;
    const bool gray = colorspace == TJCS_GRAY;
    const int pf = cmyk ? TJPF_CMYK : gray ? TJPF_GRAY : TJPF_RGB;
    Image img;
    img.allocate(w, h, cmyk ? 4 : gray ? 1 : 3);
    if (tjDecompress2(tj, src, static_cast<unsigned long>(size), img.pixels.data(), w, 0, h, pf, 0) != 0) {
        // Warnings (e.g. extraneous bytes) still give a full image; a premature end does not.
        const std::string why = tjGetErrorStr2(tj);
        if (tjGetErrorCode(tj) != TJERR_WARNING || why.find("Premature end") != std::string::npos)
            throw failure("corrupt or truncated JPEG");
    }
    if (cmyk) {  // Adobe stores inverted CMYK, so R = C * K / 255 on the decoded values (as PIL)
        Image rgb;
        rgb.allocate(w, h, 3);
        for (std::size_t i = 0, n = std::size_t(w) * std::size_t(h); i < n; ++i) {
            const unsigned k = img.pixels[i * 4 + 3];
            for (std::size_t c = 0; c < 3; ++c) {
                const unsigned t = unsigned(img.pixels[i * 4 + c]) * k + 128;
                rgb.pixels[i * 3 + c] = std::uint8_t(((t >> 8) + t) >> 8);
            }
        }
        return rgb;
    }
    return img;
}

}  // namespace lf::detail
