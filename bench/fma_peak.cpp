// The fp32 FMA peak of this machine, the ceiling the CNN goal's "share of the FMA peak" is
// taken against: each thread runs independent AVX-512 FMA chains (enough to cover the FMA
// latency on both ports) for about a second, on 1 thread and on every core at once.
// Usage: bench/fma_peak [SECONDS_PER_FIGURE]
// Prints GFLOP/s (2 flops per lane per FMA). The clock of a shared virtual machine moves, so
// take the highest of a few runs; oneDNN's own kernels can exceed a low reading.
#include <immintrin.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

constexpr int kChains = 16;  // FMA latency 4 cycles x 2 ports = 8 needed; 16 leaves room

// Runs `rounds` rounds of kChains FMAs; returns a value depending on all of them.
__attribute__((target("avx512f"))) float fma_chains(long rounds) {
    __m512 acc[kChains];
    for (int i = 0; i < kChains; ++i) acc[i] = _mm512_set1_ps(1.0f + 0.001f * float(i));
    const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
    for (long r = 0; r < rounds; ++r) {
#pragma GCC unroll 16
        for (int i = 0; i < kChains; ++i) acc[i] = _mm512_fmadd_ps(acc[i], a, b);
    }
    float lanes[16], s = 0;
    for (int i = 0; i < kChains; ++i) {
        _mm512_storeu_ps(lanes, acc[i]);
        s += lanes[i];
    }
    return s;
}

double gflops(unsigned threads, long rounds) {
    std::vector<std::thread> pool;
    std::vector<float> sink(threads);
    const auto t0 = std::chrono::steady_clock::now();
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back([&, t] { sink[t] = fma_chains(rounds); });
    for (auto& th : pool) th.join();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (sink[0] == 12345.f) std::puts("");  // keeps the work observable
    return double(threads) * double(rounds) * kChains * 16 * 2 / s / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
    if (!__builtin_cpu_supports("avx512f")) {
        std::puts("fma_peak: this CPU has no AVX-512");
        return 1;
    }
    const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
    const long rounds = long(seconds * 2.5e8);  // ~1 s per figure at ~4 GHz on one core
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    gflops(1, rounds / 10);  // wakes the clock up
    std::printf("fp32 FMA peak, AVX-512: 1 thread %.0f GFLOP/s, %u threads %.0f GFLOP/s\n", gflops(1, rounds), cores,
                gflops(cores, rounds));
}
