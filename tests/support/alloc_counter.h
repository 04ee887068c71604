#pragma once
// Counts heap allocations so a test can assert that a hot path allocates nothing.
// Replaces the global operator new: include it from exactly one .cpp per test executable.
#include <atomic>
#include <cstdlib>
#include <new>

namespace lf_test {
inline std::atomic<long> allocations{0};

// Allocations made while running f.
template <class F>
long allocations_during(F&& f) {
    const long before = allocations.load();
    f();
    return allocations.load() - before;
}
}  // namespace lf_test

void* operator new(std::size_t n) {
    ++lf_test::allocations;
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {  // std::stable_sort's buffer
    ++lf_test::allocations;
    return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
