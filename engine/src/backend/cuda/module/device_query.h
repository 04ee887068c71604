#pragma once
// Devices and raw memory: what the engine's enumeration and its arena call.
#include "backend/cuda/cuda_api.h"

namespace lf::cuda {

int driver_version(int* version, lf_cuda_error* err);
int device_count(int* n, lf_cuda_error* err);
int device_props(int device, lf_cuda_device_props* out, lf_cuda_error* err);
int mem_get_info(int device, uint64_t* free_bytes, uint64_t* total_bytes, lf_cuda_error* err);
int device_malloc(int device, size_t bytes, void** ptr, lf_cuda_error* err);
int device_free(int device, void* ptr, lf_cuda_error* err);

}  // namespace lf::cuda
