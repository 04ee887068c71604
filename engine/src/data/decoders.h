#pragma once
// One decoder per format. Each returns 1 (gray), 3 (RGB) or 4 (RGBA) channels of 8 bits and throws
// lf::Error (Input) describing what is wrong with the bytes.
#include <cstddef>
#include <cstdint>
#include <functional>

#include "layerforge/data/image.h"

namespace lf::detail {

Image decode_png(const std::uint8_t* data, std::size_t size);
// orientation: EXIF 1..8, used only to tell min_scale the upright size.
Image decode_jpeg(const std::uint8_t* data, std::size_t size, int orientation,
                  const std::function<double(int, int)>& min_scale);
Image decode_bmp(const std::uint8_t* data, std::size_t size);
Image decode_gif(const std::uint8_t* data, std::size_t size);
Image decode_pnm(const std::uint8_t* data, std::size_t size);

// Guards against absurd headers before anything is allocated.
void check_dimensions(long long width, long long height, const char* format);

}  // namespace lf::detail
