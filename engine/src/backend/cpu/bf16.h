#pragma once
// bfloat16 storage on the CPU: the top half of a float32, rounded to nearest even, so a
// conversion is a shift and an add the compiler vectorises. The bulk conversions and the
// gradient sum run on the OpenMP pool, like the other memory-bound loops between primitives.
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace lf {

using bf16_t = std::uint16_t;

inline bf16_t to_bf16(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) return bf16_t((u >> 16) | 0x40);  // NaN stays a (quiet) NaN
    u += 0x7fffu + ((u >> 16) & 1u);
    return bf16_t(u >> 16);
}

inline float from_bf16(bf16_t h) {
    const std::uint32_t u = std::uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

void to_bf16(const float* src, bf16_t* dst, std::size_t n);
void from_bf16(const bf16_t* src, float* dst, std::size_t n);
void add_bf16(bf16_t* dst, const bf16_t* src, std::size_t n);  // dst += src, summed in float32

}  // namespace lf
