#pragma once
// Per-sample transforms: resize to the model's input size (bilinear when enlarging, area when
// shrinking; stretch, or keep the aspect ratio and crop or pad), then scale to [0, 1] or
// standardise, with optional seeded training augmentation (flip, translate, rotate,
// brightness, contrast) applied in the same pass.
#include <array>
#include <cstdint>
#include <vector>

#include "layerforge/data/image.h"

namespace lf {

enum class ResizeMode { Stretch, Crop, Pad };  // Crop: fill and centre-crop; Pad: fit and pad

struct SampleSpec {
    int width = 0, height = 0, channels = 1;
    ResizeMode resize = ResizeMode::Stretch;
    std::array<std::uint8_t, 3> pad_color{0, 0, 0};
    bool composite_alpha = false;                  // alpha: dropped, or blended onto `background`
    std::array<std::uint8_t, 3> background{255, 255, 255};
    std::vector<float> mean, std;                  // per channel; empty: x / 255 in [0, 1]
    std::int64_t elements() const { return std::int64_t(width) * height * channels; }
};

struct AugmentSpec {
    bool flip = false;        // random horizontal flip
    double translate = 0;     // random shift up to this fraction of width/height
    double rotate = 0;        // random rotation up to +- degrees
    double brightness = 0;    // random offset up to +- this (in [0, 1] units)
    double contrast = 0;      // random contrast factor in [1 - c, 1 + c] around the image mean
    bool any() const { return flip || translate > 0 || rotate > 0 || brightness > 0 || contrast > 0; }
};

// The factor by which resize() will scale an image of this size (for JPEG DCT scaling).
double resize_scale(int src_width, int src_height, const SampleSpec& spec);
// Resizes (and crops or pads) an image whose channels already match spec.channels.
Image resize_image(const Image& img, const SampleSpec& spec);
// Decodes, converts channels and resizes: the cacheable, augmentation-free part of a sample.
Image load_sample(const std::uint8_t* data, std::size_t size, const SampleSpec& spec);

// u8 sample of spec's size -> floats (channels-last), augmented when aug is given (seeded).
void sample_to_float(const Image& img, const SampleSpec& spec, const AugmentSpec* aug, std::uint64_t seed, float* out);

}  // namespace lf
