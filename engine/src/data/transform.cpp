// Resizing as separable filters: each output pixel is a weighted sum of source pixels along x,
// then along y. Enlarging uses bilinear taps (pixel centres as OpenCV and PIL); shrinking uses
// area weights (the exact overlap of the output pixel's footprint), which does not alias.
#include <algorithm>
#include <cmath>

#include "layerforge/core/error.h"
#include "layerforge/data/transform.h"

namespace lf {

namespace {

struct Taps {
    std::vector<int> first, count;  // per output pixel: first tap and number of taps
    std::vector<int> src;
    std::vector<float> weight;
};

// Output n pixels from the source interval [origin, origin + extent) of an axis of size size.
Taps make_taps(int n, double origin, double extent, int size) {
    Taps t;
    const double s = extent / n;
    auto add = [&](int j, double w) {
        t.src.push_back(std::clamp(j, 0, size - 1));
        t.weight.push_back(float(w));
    };
    for (int i = 0; i < n; ++i) {
        t.first.push_back(int(t.src.size()));
        if (s > 1) {  // area
            const double lo = origin + i * s, hi = lo + s;
            for (int j = int(std::floor(lo)); j < int(std::ceil(hi)); ++j) {
                const double w = std::min(hi, j + 1.0) - std::max(lo, double(j));
                if (w > 1e-9) add(j, w / s);
            }
        } else {  // bilinear
            const double c = origin + (i + 0.5) * s - 0.5;
            const int j = int(std::floor(c));
            const double f = c - j;
            add(j, 1 - f);
            add(j + 1, f);
        }
        t.count.push_back(int(t.src.size()) - t.first.back());
    }
    return t;
}

// Horizontal pass of one source row: C channels interleaved, taps per output pixel.
template <int C>
void horizontal(const std::uint8_t* s, const Taps& tx, int dw, float* r) {
    for (int x = 0; x < dw; ++x) {
        float acc[C] = {};
        for (int k = tx.first[std::size_t(x)], e = k + tx.count[std::size_t(x)]; k < e; ++k) {
            const float w = tx.weight[std::size_t(k)];
            const std::uint8_t* p = s + std::size_t(tx.src[std::size_t(k)]) * C;
            for (int c = 0; c < C; ++c) acc[c] += w * float(p[c]);
        }
        for (int c = 0; c < C; ++c) r[std::size_t(x) * C + std::size_t(c)] = acc[c];
    }
}

// Resamples the source window into the dst rectangle (dx, dy, dw, dh) of out.
void resample(const Image& img, double x0, double w, double y0, double h, Image& out, int dx, int dy, int dw, int dh) {
    const int C = img.channels;
    const Taps tx = make_taps(dw, x0, w, img.width), ty = make_taps(dh, y0, h, img.height);
    const int row_lo = *std::min_element(ty.src.begin(), ty.src.end());
    const int row_hi = *std::max_element(ty.src.begin(), ty.src.end());
    const std::size_t width = std::size_t(dw) * std::size_t(C);
    std::vector<float> rows(std::size_t(row_hi - row_lo + 1) * width), acc(width);
    for (int y = row_lo; y <= row_hi; ++y) {  // horizontal pass over the rows the vertical pass needs
        float* r = rows.data() + std::size_t(y - row_lo) * width;
        if (C == 1) horizontal<1>(img.row(y), tx, dw, r);
        else if (C == 3) horizontal<3>(img.row(y), tx, dw, r);
        else horizontal<4>(img.row(y), tx, dw, r);
    }
    for (int y = 0; y < dh; ++y) {  // vertical pass: whole rows at a time, which vectorises
        std::fill(acc.begin(), acc.end(), 0.f);
        for (int k = ty.first[std::size_t(y)], e = k + ty.count[std::size_t(y)]; k < e; ++k) {
            const float wk = ty.weight[std::size_t(k)];
            const float* r = rows.data() + std::size_t(ty.src[std::size_t(k)] - row_lo) * width;
            for (std::size_t i = 0; i < width; ++i) acc[i] += wk * r[i];
        }
        std::uint8_t* d = out.row(dy + y) + std::size_t(dx) * std::size_t(C);
        for (std::size_t i = 0; i < width; ++i) d[i] = std::uint8_t(std::clamp(acc[i], 0.f, 255.f) + 0.5f);
    }
}

}  // namespace

double resize_scale(int w, int h, const SampleSpec& spec) {
    const double sx = double(spec.width) / w, sy = double(spec.height) / h;
    return spec.resize == ResizeMode::Pad ? std::min(sx, sy) : std::max(sx, sy);
}

Image resize_image(const Image& img, const SampleSpec& spec) {
    if (img.width == spec.width && img.height == spec.height) return img;
    Image out;
    out.allocate(spec.width, spec.height, img.channels);
    switch (spec.resize) {
        case ResizeMode::Stretch:
            resample(img, 0, img.width, 0, img.height, out, 0, 0, spec.width, spec.height);
            break;
        case ResizeMode::Crop: {  // the centred source window with the output's aspect ratio
            const double s = resize_scale(img.width, img.height, spec);
            const double w = spec.width / s, h = spec.height / s;
            resample(img, (img.width - w) / 2, w, (img.height - h) / 2, h, out, 0, 0, spec.width, spec.height);
            break;
        }
        case ResizeMode::Pad: {
            const double s = resize_scale(img.width, img.height, spec);
            const int w = std::clamp(int(std::lround(img.width * s)), 1, spec.width);
            const int h = std::clamp(int(std::lround(img.height * s)), 1, spec.height);
            for (std::size_t i = 0; i < out.pixels.size(); ++i)
                out.pixels[i] = spec.pad_color[img.channels == 1 ? 0 : i % std::size_t(img.channels)];
            resample(img, 0, img.width, 0, img.height, out, (spec.width - w) / 2, (spec.height - h) / 2, w, h);
            break;
        }
    }
    return out;
}

Image load_sample(const std::uint8_t* data, std::size_t size, const SampleSpec& spec) {
    DecodeOptions opts;
    opts.channels = spec.channels;
    opts.composite_alpha = spec.composite_alpha;
    opts.background = spec.background;
    opts.min_scale = [&spec](int w, int h) { return resize_scale(w, h, spec); };
    return resize_image(decode_image(data, size, opts), spec);
}

}  // namespace lf
