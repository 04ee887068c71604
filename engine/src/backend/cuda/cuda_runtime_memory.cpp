#include "backend/cuda/cuda_runtime_memory.h"

namespace lf {

void* CudaRawMemory::allocate(std::size_t bytes, std::string& error) {
    void* p = nullptr;
    lf_cuda_error e{};
    if (api_.malloc(device_, bytes, &p, &e)) {
        error = e.text;
        return nullptr;
    }
    return p;
}

void CudaRawMemory::release(void* p) { api_.free(device_, p, nullptr); }

std::uint64_t CudaRawMemory::free_bytes() const {
    std::uint64_t free = 0, total = 0;
    return api_.mem_get_info(device_, &free, &total, nullptr) ? 0 : free;
}

}  // namespace lf
