#pragma once
// IEEE float16 on the host (1 sign, 5 exponent, 10 mantissa bits), for the few places that
// read a GPU's mixed_float16 buffers back. Rounding to nearest, ties to even, as CUDA's
// __float2half_rn: values beyond float16's largest finite one (65504) become infinity, tiny
// ones subnormal or zero; a NaN stays a quiet NaN. Widening back is exact.
#include <bit>
#include <cstdint>

namespace lf {

constexpr float from_float16(std::uint16_t h) {
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));  // inf, NaN
    if (exp != 0) return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
    const float sub = float(man) * (1.0f / 16777216.0f);  // man x 2^-24
    return sign ? -sub : sub;
}

constexpr std::uint16_t to_float16(float x) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(x);
    const std::uint16_t sign = std::uint16_t((u >> 16) & 0x8000u);
    const std::uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return std::uint16_t(sign | 0x7e00u);  // NaN
    if (a >= 0x477ff000u) return std::uint16_t(sign | 0x7c00u);  // rounds past 65504: inf
    if (a < 0x38800000u) {  // below 2^-14: subnormal, man = round(|x| 2^24)
        const int shift = 126 - int(a >> 23);  // from the implicit-bit mantissa to units of 2^-24
        if (shift > 24) return sign;
        const std::uint32_t m = (a & 0x7fffffu) | 0x800000u;
        const std::uint32_t half = 1u << (shift - 1), rest = m & ((1u << shift) - 1), q = m >> shift;
        return std::uint16_t(sign | (q + (rest > half || (rest == half && (q & 1u)))));
    }
    const std::uint32_t r = a + 0xfffu + ((a >> 13) & 1u);  // ties to even on the 13 dropped bits
    return std::uint16_t(sign | ((r >> 13) - (112u << 10)));
}

}  // namespace lf
