// The image decoders (PNG, JPEG, BMP, GIF, PNM; sniffed by content) with and without conversion.
#include <algorithm>

#include "fuzz_target.h"
#include "layerforge/data/image.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        lf::decode_image(data, size);
    } catch (const lf::Error&) {
    }
    try {  // the dataset pipeline's path: gray, alpha composited, JPEG scaled down
        lf::DecodeOptions gray;
        gray.channels = 1;
        gray.composite_alpha = true;
        gray.min_scale = [](int w, int h) { return 16.0 / std::max(1, std::max(w, h)); };
        lf::decode_image(data, size, gray);
    } catch (const lf::Error&) {
    }
    return 0;
}
