#include "backend/cpu/bf16.h"

#include "backend/cpu/bf16_avx512.h"
#include "core/slices.h"
#include "core/vector_clones.h"

namespace lf {

namespace {

LF_VECTOR_CLONES void round_portable(const float* src, bf16_t* dst, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) dst[i] = to_bfloat16(src[i]);
}

LF_VECTOR_CLONES void widen(const bf16_t* src, float* dst, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) dst[i] = from_bfloat16(src[i]);
}

LF_VECTOR_CLONES void add_portable(bf16_t* dst, const bf16_t* src, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) dst[i] = to_bfloat16(from_bfloat16(dst[i]) + from_bfloat16(src[i]));
}

// The tails (under 32 values) take the portable loops: the same bits.
#pragma GCC diagnostic push  // GCC 12 warns about the undefined register inside its own AVX-512 intrinsics
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

LF_AVX512_BF16 void round_avx512(const float* src, bf16_t* dst, std::size_t n) {
    std::size_t i = 0;
    for (; i + 32 <= n; i += 32)
        _mm512_storeu_si512(dst + i, bf16_round32(_mm512_loadu_ps(src + i), _mm512_loadu_ps(src + i + 16)));
    round_portable(src + i, dst + i, n - i);
}

LF_AVX512_BF16 inline __m512 widen16(const bf16_t* p) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))), 16));
}

LF_AVX512_BF16 void add_avx512(bf16_t* dst, const bf16_t* src, std::size_t n) {
    std::size_t i = 0;
    for (; i + 32 <= n; i += 32)
        _mm512_storeu_si512(dst + i, bf16_round32(_mm512_add_ps(widen16(dst + i), widen16(src + i)),
                                                  _mm512_add_ps(widen16(dst + i + 16), widen16(src + i + 16))));
    add_portable(dst + i, src + i, n - i);
}

#pragma GCC diagnostic pop

}  // namespace

void to_bf16(const float* src, bf16_t* dst, std::size_t n) {
    const bool fast = cpu_has_avx512_bf16();
    core_detail::for_each_slice(n, [&](std::size_t b, std::size_t e) {
        (fast ? round_avx512 : round_portable)(src + b, dst + b, e - b);
    });
}

void from_bf16(const bf16_t* src, float* dst, std::size_t n) {
    core_detail::for_each_slice(n, [&](std::size_t b, std::size_t e) { widen(src + b, dst + b, e - b); });
}

void add_bf16(bf16_t* dst, const bf16_t* src, std::size_t n) {
    const bool fast = cpu_has_avx512_bf16();
    core_detail::for_each_slice(n, [&](std::size_t b, std::size_t e) {
        (fast ? add_avx512 : add_portable)(dst + b, src + b, e - b);
    });
}

}  // namespace lf
