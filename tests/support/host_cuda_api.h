#pragma once
// The CUDA module's table with host memory posing as the device, for host tests of the CUDA
// backend's engine side: a context remembers the device index it was opened on, the device
// reports compute capability 9.0, and fills, scales and copies run on the host. A test sets
// the entries it counts or fakes on top (its collectives, its counted copies).
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "backend/cuda/cuda_api.h"
#include "backend/cuda/device_arena.h"

namespace lf::test {

struct HostCudaContext {
    int device;
};

inline int host_cuda_device(lf_cuda_context* c) { return reinterpret_cast<HostCudaContext*>(c)->device; }

// Host memory posing as a device's: zeroed blocks, no limit.
class HostDeviceMemory final : public RawDeviceMemory {
public:
    void* allocate(std::size_t bytes, std::string&) override { return std::calloc(1, bytes); }
    void release(void* p) override { std::free(p); }
    std::uint64_t free_bytes() const override { return 1ull << 34; }
};

inline lf_cuda_api host_cuda_api() {
    lf_cuda_api a{};
    a.context_create = [](int device, lf_cuda_error*) {
        return reinterpret_cast<lf_cuda_context*>(new HostCudaContext{device});
    };
    a.context_destroy = [](lf_cuda_context* c) { delete reinterpret_cast<HostCudaContext*>(c); };
    a.device_props = [](int, lf_cuda_device_props* p, lf_cuda_error*) {
        *p = {};
        p->cc_major = 9;
        return 0;
    };
    a.fill = [](lf_cuda_context*, float* dst, float value, size_t n, lf_cuda_error*) {
        std::fill(dst, dst + n, value);
        return 0;
    };
    a.scale = [](lf_cuda_context*, float* x, float factor, size_t n, lf_cuda_error*) {
        for (size_t i = 0; i < n; ++i) x[i] *= factor;
        return 0;
    };
    auto copy = [](lf_cuda_context*, void* dst, const void* src, size_t bytes, lf_cuda_error*) {
        std::memcpy(dst, src, bytes);
        return 0;
    };
    a.copy_to_device = copy;
    a.copy_to_host = copy;
    return a;
}

}  // namespace lf::test
