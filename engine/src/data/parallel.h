#pragma once
// parallel_for over [0, n) on a few threads that claim indices from a shared counter; the first
// exception a call throws is rethrown to the caller.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace lf::detail {

inline int default_threads() { return int(std::max(1u, std::thread::hardware_concurrency())); }

template <class Fn>
void parallel_for(std::int64_t n, int threads, Fn fn) {
    if (threads <= 0) threads = default_threads();
    threads = int(std::min<std::int64_t>(threads, std::max<std::int64_t>(n, 1)));
    std::atomic<std::int64_t> next{0};
    std::mutex mutex;
    std::exception_ptr error;  // the first failure stops the loop and is rethrown here
    auto work = [&] {
        try {
            for (std::int64_t i; (i = next.fetch_add(1)) < n;) fn(i);
        } catch (...) {
            std::lock_guard lock(mutex);
            if (!error) error = std::current_exception();
            next = n;
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (error) std::rethrow_exception(error);
}

}  // namespace lf::detail
