#pragma once
// The arena's raw allocator on a CUDA device: the module's cudaMalloc, cudaFree, cudaMemGetInfo.
#include "backend/cuda/cuda_api.h"
#include "backend/cuda/device_arena.h"

namespace lf {

class CudaRawMemory final : public RawDeviceMemory {
public:
    CudaRawMemory(const lf_cuda_api& api, int device) : api_(api), device_(device) {}
    void* allocate(std::size_t bytes, std::string& error) override;
    void release(void* p) override;
    std::uint64_t free_bytes() const override;

private:
    const lf_cuda_api& api_;
    int device_;
};

}  // namespace lf
