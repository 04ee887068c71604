#pragma once
// One module event owned by C++: where one of a context's streams (or the host) waits for another.
#include "backend/cuda/cuda_context.h"

namespace lf {

class CudaEvent {
public:
    // `timing`: an event whose records can be timed (PassTimer); the others cannot, and cost less.
    explicit CudaEvent(const CudaContext& ctx, bool timing = false);  // throws lf::Error
    ~CudaEvent();
    CudaEvent(const CudaEvent&) = delete;
    CudaEvent& operator=(const CudaEvent&) = delete;

    lf_cuda_event* get() const { return ev_; }
    void record() const;       // on the context's compute stream
    void stream_waits() const;  // the compute stream waits for the last record
    void host_waits() const;    // returns at once when that work has run (or nothing was recorded)
    // Milliseconds from this event's last record to `later`'s (waits for `later`'s work).
    float ms_until(const CudaEvent& later) const;

private:
    const CudaContext& ctx_;
    lf_cuda_event* ev_ = nullptr;
};

}  // namespace lf
