#include "backend/cuda/cuda_context.h"

#include "layerforge/core/error.h"

namespace lf {

void cuda_check(int status, const lf_cuda_error& err, const std::string& what, const std::string& device) {
    if (status) throw runtime_error(what + " on " + device + " failed: " + err.text);
}

CudaContext::CudaContext(const lf_cuda_api& api, int device, const std::string& id) : api_(api), id_(id) {
    lf_cuda_error e{};
    ctx_ = api.context_create(device, &e);
    if (!ctx_) cuda_check(e.code ? e.code : -1, e, "creating the CUDA stream and library handles", id);
    lf_cuda_device_props props{};
    const int s = api.device_props(device, &props, &e);
    if (s) {
        api.context_destroy(ctx_);
        cuda_check(s, e, "reading the device's properties", id);
    }
    cc_ = props.cc_major * 10 + props.cc_minor;
}

CudaContext::~CudaContext() { api_.context_destroy(ctx_); }

}  // namespace lf
