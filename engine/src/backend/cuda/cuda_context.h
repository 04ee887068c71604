#pragma once
// One lf_cuda_context (stream, cuBLAS and cuDNN handles) owned by C++, and the table's status
// turned into lf::Error.
#include <memory>
#include <string>

#include "backend/cuda/cuda_api.h"

namespace lf {

// Throws lf::Error (Runtime) "<what> on <device>: <the module's text>" when status is nonzero.
void cuda_check(int status, const lf_cuda_error& err, const std::string& what, const std::string& device);

class CudaContext {
public:
    CudaContext(const lf_cuda_api& api, int device, const std::string& id);  // throws lf::Error
    ~CudaContext();
    CudaContext(const CudaContext&) = delete;
    CudaContext& operator=(const CudaContext&) = delete;

    const lf_cuda_api& api() const { return api_; }
    lf_cuda_context* get() const { return ctx_; }
    const std::string& device() const { return id_; }
    int compute_capability() const { return cc_; }  // x 10: 90 for sm_90
    // Runs one table entry on this context: cuda([&](lf_cuda_error* e){ return api.fill(...); }, "fill").
    template <class F>
    void run(F&& call, const char* what) const {
        lf_cuda_error e{};
        cuda_check(call(&e), e, what, id_);
    }

private:
    const lf_cuda_api& api_;
    lf_cuda_context* ctx_ = nullptr;
    std::string id_;
    int cc_ = 0;
};

}  // namespace lf
