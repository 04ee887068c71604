#pragma once
// A host array's way to the device through page-locked memory allocated once (cudaHostAlloc,
// never per step): the copy from it is asynchronous, so the host goes on while the device
// copies. The pinned buffer is written again only after the copy from it has run, which the
// host waits for on an event (by the next write the copy has long finished: no stall).
#include <cstddef>
#include <string>

#include "backend/cuda/cuda_event.h"

namespace lf {

class PinnedUpload {
public:
    // Throws lf::Error (Runtime) naming `what` when the host memory cannot be pinned.
    PinnedUpload(const CudaContext& ctx, std::size_t bytes, const std::string& what);
    ~PinnedUpload();
    PinnedUpload(const PinnedUpload&) = delete;
    PinnedUpload& operator=(const PinnedUpload&) = delete;

    std::size_t bytes() const { return bytes_; }
    // bytes (at most bytes()) of host to dst, queued on the compute stream.
    void to_device(void* dst, const void* host, std::size_t bytes);
    // The same on the copy stream after `after` (may be null); done() is recorded behind it.
    void to_device_on_copy_stream(void* dst, const void* host, std::size_t bytes, const CudaEvent* after);
    const CudaEvent& done() const { return done_; }

private:
    void fill(const void* host, std::size_t bytes);  // waits for the last copy from the buffer, then writes it
    const CudaContext& ctx_;
    std::size_t bytes_;
    void* pinned_ = nullptr;
    CudaEvent done_;
};

}  // namespace lf
