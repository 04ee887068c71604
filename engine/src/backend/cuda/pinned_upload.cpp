#include "backend/cuda/pinned_upload.h"

#include <cstring>

#include "layerforge/core/error.h"

namespace lf {

PinnedUpload::PinnedUpload(const CudaContext& ctx, std::size_t bytes, const std::string& what)
    : ctx_(ctx), bytes_(bytes), done_(ctx) {
    ctx.run([&](lf_cuda_error* e) { return ctx.api().host_alloc(bytes, &pinned_, e); },
            ("pinning " + std::to_string(bytes) + " bytes of host memory for " + what).c_str());
}

// An upload may still read the buffer; a failure here has nobody left to tell.
PinnedUpload::~PinnedUpload() {
    lf_cuda_error e{};
    ctx_.api().event_wait_host(done_.get(), &e);
    ctx_.api().host_free(pinned_, &e);
}

void PinnedUpload::fill(const void* host, std::size_t bytes) {
    if (bytes > bytes_)
        throw runtime_error("an upload of " + std::to_string(bytes) + " bytes through a pinned buffer of " +
                            std::to_string(bytes_));
    done_.host_waits();
    std::memcpy(pinned_, host, bytes);
}

void PinnedUpload::to_device(void* dst, const void* host, std::size_t bytes) {
    fill(host, bytes);
    ctx_.run([&](lf_cuda_error* e) { return ctx_.api().copy_to_device(ctx_.get(), dst, pinned_, bytes, e); },
             "copying to the device");
    done_.record();
}

void PinnedUpload::to_device_on_copy_stream(void* dst, const void* host, std::size_t bytes, const CudaEvent* after) {
    fill(host, bytes);
    ctx_.run([&](lf_cuda_error* e) {
        return ctx_.api().upload(ctx_.get(), dst, pinned_, bytes, after ? after->get() : nullptr, done_.get(), e);
    }, "copying to the device");
}

}  // namespace lf
