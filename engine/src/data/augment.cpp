// u8 sample -> float tensor, with the training augmentation in the same pass: one inverse affine
// map (flip, rotation about the centre, translation) sampled bilinearly with edge clamping, then
// contrast around the image mean and a brightness offset, then [0, 1] scaling or standardising.
#include <algorithm>
#include <cmath>

#include "layerforge/data/transform.h"

namespace lf {

namespace {

// splitmix64: a tiny seeded generator; each sample gets its own stream.
struct Rng {
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    double uniform(double lo, double hi) { return lo + (hi - lo) * double(next() >> 11) * (1.0 / 9007199254740992.0); }
};

}  // namespace

void sample_to_float(const Image& img, const SampleSpec& spec, const AugmentSpec* aug, std::uint64_t seed, float* out) {
    const int W = img.width, H = img.height, C = img.channels;
    float scale[4], shift[4];  // out = v * scale + shift, folding 1/255 and the standardisation
    for (int c = 0; c < C; ++c) {
        const float mean = spec.mean.empty() ? 0.f : spec.mean[std::size_t(c)];
        const float sd = spec.std.empty() ? 1.f : spec.std[std::size_t(c)];
        scale[c] = 1.f / (255.f * sd);
        shift[c] = -mean / sd;
    }
    const std::size_t n = std::size_t(W) * std::size_t(H) * std::size_t(C);
    if (!aug || !aug->any()) {
        const std::uint8_t* p = img.pixels.data();
        if (C == 1) {
            for (std::size_t i = 0; i < n; ++i) out[i] = float(p[i]) * scale[0] + shift[0];
        } else {
            for (std::size_t i = 0; i < n; ++i) out[i] = float(p[i]) * scale[i % 3] + shift[i % 3];
        }
        return;
    }
    Rng rng{seed};
    // Draw every parameter in a fixed order so a seed always means the same augmentation.
    const bool flip = aug->flip && (rng.next() & 1);
    const double tx = aug->translate > 0 ? rng.uniform(-aug->translate, aug->translate) * W : 0;
    const double ty = aug->translate > 0 ? rng.uniform(-aug->translate, aug->translate) * H : 0;
    const double angle = aug->rotate > 0 ? rng.uniform(-aug->rotate, aug->rotate) * M_PI / 180 : 0;
    const double contrast = aug->contrast > 0 ? rng.uniform(1 - aug->contrast, 1 + aug->contrast) : 1;
    const double brightness = aug->brightness > 0 ? rng.uniform(-aug->brightness, aug->brightness) : 0;

    float mean[4] = {0, 0, 0, 0};
    if (contrast != 1) {
        double sum[4] = {0, 0, 0, 0};
        for (std::size_t i = 0; i < n; ++i) sum[i % std::size_t(C)] += img.pixels[i];
        for (int c = 0; c < C; ++c) mean[c] = float(sum[c] / (double(W) * H) / 255.0);
    }
    const bool geometric = flip || tx != 0 || ty != 0 || angle != 0;
    const double cx = (W - 1) / 2.0, cy = (H - 1) / 2.0, ca = std::cos(angle), sa = std::sin(angle);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            float v[4];
            if (!geometric) {
                for (int c = 0; c < C; ++c) v[c] = img.row(y)[std::size_t(x) * std::size_t(C) + std::size_t(c)];
            } else {
                // Output (x, y) -> source: undo translation, rotate back about the centre, then flip.
                const double ux = x - cx - tx, uy = y - cy - ty;
                double sx = ca * ux + sa * uy + cx, sy = -sa * ux + ca * uy + cy;
                if (flip) sx = (W - 1) - sx;
                sx = std::clamp(sx, 0.0, double(W - 1));
                sy = std::clamp(sy, 0.0, double(H - 1));
                const int x0 = int(sx), y0 = int(sy);
                const int x1 = std::min(x0 + 1, W - 1), y1 = std::min(y0 + 1, H - 1);
                const float fx = float(sx - x0), fy = float(sy - y0);
                const std::uint8_t *r0 = img.row(y0), *r1 = img.row(y1);
                for (int c = 0; c < C; ++c) {
                    auto at = [&](const std::uint8_t* r, int xx) { return float(r[std::size_t(xx) * std::size_t(C) + std::size_t(c)]); };
                    const float top = at(r0, x0) + (at(r0, x1) - at(r0, x0)) * fx;
                    const float bottom = at(r1, x0) + (at(r1, x1) - at(r1, x0)) * fx;
                    v[c] = top + (bottom - top) * fy;
                }
            }
            float* o = out + (std::size_t(y) * std::size_t(W) + std::size_t(x)) * std::size_t(C);
            for (int c = 0; c < C; ++c) {
                float u = v[c] / 255.f;
                u = float((u - mean[c]) * contrast + mean[c] + brightness);
                u = std::clamp(u, 0.f, 1.f);
                o[c] = u * 255.f * scale[c] + shift[c];
            }
        }
}

}  // namespace lf
