#include "backend/cpu/bf16.h"

#include "core/slices.h"

namespace lf {

void to_bf16(const float* src, bf16_t* dst, std::size_t n) {
    core_detail::for_each_slice(n, [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) dst[i] = to_bfloat16(src[i]);
    });
}

void from_bf16(const bf16_t* src, float* dst, std::size_t n) {
    core_detail::for_each_slice(n, [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) dst[i] = from_bfloat16(src[i]);
    });
}

void add_bf16(bf16_t* dst, const bf16_t* src, std::size_t n) {
    core_detail::for_each_slice(n, [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) dst[i] = to_bfloat16(from_bfloat16(dst[i]) + from_bfloat16(src[i]));
    });
}

}  // namespace lf
