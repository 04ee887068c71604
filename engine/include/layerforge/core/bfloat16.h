#pragma once
// bfloat16 on the host: the upper half of a float32 (sign, 8 exponent bits, 7 mantissa bits).
// The conversion rounds to the nearest value, ties to even, as oneDNN's reorders and PyTorch's
// `tensor.to(torch.bfloat16)` do; a NaN stays a (quiet) NaN of the same sign and the values
// above bfloat16's largest finite one round to infinity. Widening back is exact.
#include <bit>
#include <cstdint>

namespace lf {

constexpr std::uint16_t to_bfloat16(float x) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(x);
    if ((u & 0x7fffffffu) > 0x7f800000u) return std::uint16_t((u >> 16) | 0x0040u);  // NaN: truncating could make it inf
    return std::uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

constexpr float from_bfloat16(std::uint16_t b) { return std::bit_cast<float>(std::uint32_t(b) << 16); }

}  // namespace lf
