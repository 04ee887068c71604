#pragma once
// Checked size arithmetic. Shapes come from strangers' files and typed-in numbers, and products
// of sizes (elements, parameters, bytes, FLOPs) pass 2^63 long before anything could be allocated.
// Every product or sum of sizes in the engine goes through these: the result is exact, or the call
// throws lf::Error (Input) "shape too large: ...", which analysis turns into a diagnostic on the node.
#include <cstdint>
#include <initializer_list>

namespace lf {

// The most values one per-sample tensor may hold: 2^40 (4 TB of floats, beyond any machine), so
// that element counts, times the 4 bytes of a float and a batch of up to 2^31, stay checkable.
inline constexpr std::int64_t kMaxShapeElements = std::int64_t(1) << 40;

[[noreturn]] void throw_size_overflow(const char* what, std::int64_t a, std::int64_t b);

// a * b and a + b for non-negative sizes; throw when the exact result passes 2^63 - 1.
inline std::int64_t mul_size(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) throw_size_overflow("*", a, b);
    return r;
}
inline std::int64_t add_size(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_add_overflow(a, b, &r)) throw_size_overflow("+", a, b);
    return r;
}
inline std::int64_t mul_sizes(std::initializer_list<std::int64_t> factors) {
    std::int64_t r = 1;
    for (std::int64_t f : factors) r = mul_size(r, f);
    return r;
}

// a * b and a + b clamped at 2^63 - 1, for figures that are only reported or compared (bytes for
// a batch of 2^31): "huge" must not wrap to negative.
inline std::int64_t saturating_mul(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
inline std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

// Throws "shape too large" when `elements` passes kMaxShapeElements.
std::int64_t check_elements(std::int64_t elements);

}  // namespace lf
