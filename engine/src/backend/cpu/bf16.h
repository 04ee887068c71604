#pragma once
// bfloat16 buffers on the CPU: the bulk conversions (core/bfloat16.h's rounding, with the
// AVX512-BF16 instruction where the CPU has it: bf16_avx512.h) and the gradient sum run on the
// OpenMP pool, like the other memory-bound loops between primitives.
#include <cstddef>
#include <cstdint>

#include "layerforge/core/bfloat16.h"

namespace lf {

using bf16_t = std::uint16_t;

void to_bf16(const float* src, bf16_t* dst, std::size_t n);
void from_bf16(const bf16_t* src, float* dst, std::size_t n);
void add_bf16(bf16_t* dst, const bf16_t* src, std::size_t n);  // dst += src, summed in float32

}  // namespace lf
