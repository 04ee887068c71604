// A CUDA backend module built for another engine: its table says ABI 0. The loader must
// refuse it with the versions, not call into it.
#include "backend/cuda/cuda_api.h"

extern "C" __attribute__((visibility("default"))) const lf_cuda_api* lf_cuda_module_api(uint32_t) {
    static const lf_cuda_api api = [] {
        lf_cuda_api a{};
        a.abi_version = 0;
        a.struct_size = 16;
        return a;
    }();
    return &api;
}
