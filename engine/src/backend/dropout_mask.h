#pragma once
// Dropout's counter-based mask, one definition for both backends so they drop the same units:
// element i of step t keeps its value, scaled by 1 / (1 - rate), when
// mix(mix(seed ^ mix(t)) + i) >> 32 passes the rate's threshold. The mask depends on nothing
// else, so a seeded run is reproducible whatever the thread count, and a resumed run continues
// the stream (seek_rng). i counts the elements of the global batch: a data-parallel rank whose
// rows start at row r begins at r * elements, drawing the masks one process would.
#include <cstdint>

#if defined(__CUDACC__)
#define LF_HOST_DEVICE __host__ __device__
#else
#define LF_HOST_DEVICE
#endif

namespace lf::dropout {

LF_HOST_DEVICE inline std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

LF_HOST_DEVICE inline std::uint64_t step_base(std::uint64_t seed, std::uint64_t step) { return mix(seed ^ mix(step)); }
inline std::uint64_t threshold(double rate) { return std::uint64_t(rate * double(1ULL << 32)); }
inline float keep_scale(double rate) { return float(1.0 / (1.0 - rate)); }

// The mask value of global element `index`: keep_scale or 0.
LF_HOST_DEVICE inline float mask(std::uint64_t base, std::uint64_t index, std::uint64_t threshold, float keep_scale) {
    return (mix(base + index) >> 32) >= threshold ? keep_scale : 0.f;
}

}  // namespace lf::dropout
