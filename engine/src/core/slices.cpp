#include "core/slices.h"

#include <algorithm>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace lf::core_detail {

namespace {
constexpr std::size_t kAlign = 16;             // floats per 64-byte cache line
constexpr std::size_t kMinParallel = 1 << 16;  // below this, waking the pool costs more than it saves
}  // namespace

int pool_threads() {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

ThreadCount::ThreadCount(int threads) : previous_(pool_threads()) {
#ifdef _OPENMP
    if (threads > 0 && threads != previous_) omp_set_num_threads(threads);
#else
    (void)threads;
#endif
}

ThreadCount::~ThreadCount() {
#ifdef _OPENMP
    if (omp_get_max_threads() != previous_) omp_set_num_threads(previous_);
#endif
}

void run_slices(std::size_t n, void (*fn)(void*, std::size_t, std::size_t), void* context) {
    // Serial without OpenMP (a compiler without it) and under ThreadSanitizer, which cannot see
    // libgomp's barriers and would report the slices' writes as racing with the caller's reads.
#if defined(_OPENMP) && !defined(__SANITIZE_THREAD__)
    if (n >= kMinParallel && omp_get_max_threads() > 1) {
#pragma omp parallel
        {
            const auto threads = std::size_t(omp_get_num_threads()), t = std::size_t(omp_get_thread_num());
            // Rounded up twice: n / threads rounded down left the last n % threads values out
            // whenever it was a multiple of kAlign (65,537 floats on two threads).
            const std::size_t per = ((n + threads - 1) / threads + kAlign - 1) / kAlign * kAlign;
            const std::size_t begin = std::min(n, t * per), end = std::min(n, begin + per);
            if (begin < end) fn(context, begin, end);
        }
        return;
    }
#endif
    fn(context, 0, n);
}

void run_items(std::size_t count, std::size_t work, void (*fn)(void*, std::size_t), void* context) {
#if defined(_OPENMP) && !defined(__SANITIZE_THREAD__)
    if (work >= kMinParallel && count > 1 && omp_get_max_threads() > 1) {
        const auto n = std::ptrdiff_t(count);
#pragma omp parallel for schedule(dynamic, 1)
        for (std::ptrdiff_t i = 0; i < n; ++i) fn(context, std::size_t(i));
        return;
    }
#endif
    (void)work;
    for (std::size_t i = 0; i < count; ++i) fn(context, i);
}

}  // namespace lf::core_detail
