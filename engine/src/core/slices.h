#pragma once
// for_each_slice: splits [0, n) into one contiguous slice per thread of the OpenMP pool that
// oneDNN runs on and calls fn(begin, end) once per slice, all slices in parallel. For the
// memory-bound loops between oneDNN's primitives (the optimizer updates, the fan-out gradient
// sums): one core alone cannot draw the machine's memory bandwidth, so a single-threaded
// optimizer update left the other cores idle for ~15% of a training step.
// Slices start on 64-byte boundaries (no false sharing); small n runs on the calling thread.
#include <cstddef>
#include <type_traits>

namespace lf::core_detail {

// The OpenMP threads the calling thread's parallel regions use (oneDNN's primitives, the slices):
// pool_threads() now, and ThreadCount to set them for a scope. With OpenMP the count is the
// calling thread's own setting, so a plan may run on fewer threads than the data workers see.
int pool_threads();

class ThreadCount {
public:
    explicit ThreadCount(int threads);  // <= 0: leave as it is
    ~ThreadCount();
    ThreadCount(const ThreadCount&) = delete;
    ThreadCount& operator=(const ThreadCount&) = delete;

private:
    int previous_;
};

void run_slices(std::size_t n, void (*fn)(void* context, std::size_t begin, std::size_t end), void* context);
void run_items(std::size_t count, std::size_t work, void (*fn)(void* context, std::size_t item), void* context);

template <class Fn>
void for_each_slice(std::size_t n, Fn&& fn) {  // no std::function: nothing is allocated per step
    run_slices(
        n, [](void* c, std::size_t b, std::size_t e) { (*static_cast<std::remove_reference_t<Fn>*>(c))(b, e); },
        &fn);
}

// for_each_item: fn(i) for every i in [0, count), the items shared out to the pool's threads as
// each finishes the one before (they may differ in size); on the calling thread when their
// `work` together (in floats) is under what is worth waking the pool for, as for the slices.
template <class Fn>
void for_each_item(std::size_t count, std::size_t work, Fn&& fn) {
    run_items(
        count, work, [](void* c, std::size_t i) { (*static_cast<std::remove_reference_t<Fn>*>(c))(i); }, &fn);
}

}  // namespace lf::core_detail
