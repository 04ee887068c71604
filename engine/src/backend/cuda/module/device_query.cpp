#include "device_query.h"

#include <cstdio>
#include <cstring>

#include "status.h"

namespace lf::cuda {

int driver_version(int* version, lf_cuda_error* err) {
    *version = 0;
    return check(cudaDriverGetVersion(version), "cudaDriverGetVersion", err);
}

// Without a driver cudaGetDeviceCount returns 35 and leaves its argument as it was.
int device_count(int* n, lf_cuda_error* err) {
    int count = 0;
    const int s = check(cudaGetDeviceCount(&count), "cudaGetDeviceCount", err);
    *n = s ? 0 : count;
    return s;
}

int device_props(int device, lf_cuda_device_props* out, lf_cuda_error* err) {
    cudaDeviceProp p{};
    if (int s = check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties", err)) return s;
    std::memset(out, 0, sizeof *out);
    std::snprintf(out->name, sizeof out->name, "%s", p.name);
    out->total_memory = p.totalGlobalMem;
    out->cc_major = p.major;
    out->cc_minor = p.minor;
    out->multiprocessors = p.multiProcessorCount;
    return check(cudaDeviceGetPCIBusId(out->pci_bus_id, int(sizeof out->pci_bus_id), device), "cudaDeviceGetPCIBusId",
                 err);
}

int mem_get_info(int device, uint64_t* free_bytes, uint64_t* total_bytes, lf_cuda_error* err) {
    *free_bytes = *total_bytes = 0;
    if (int s = check(cudaSetDevice(device), "cudaSetDevice", err)) return s;
    size_t f = 0, t = 0;
    if (int s = check(cudaMemGetInfo(&f, &t), "cudaMemGetInfo", err)) return s;
    *free_bytes = f;
    *total_bytes = t;
    return 0;
}

int device_malloc(int device, size_t bytes, void** ptr, lf_cuda_error* err) {
    *ptr = nullptr;
    if (int s = check(cudaSetDevice(device), "cudaSetDevice", err)) return s;
    return check(cudaMalloc(ptr, bytes), "cudaMalloc", err);
}

int device_free(int device, void* ptr, lf_cuda_error* err) {
    if (int s = check(cudaSetDevice(device), "cudaSetDevice", err)) return s;
    return check(cudaFree(ptr), "cudaFree", err);
}

}  // namespace lf::cuda
