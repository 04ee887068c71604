#include "backend/cuda/cuda_event.h"

namespace lf {

CudaEvent::CudaEvent(const CudaContext& ctx, bool timing) : ctx_(ctx) {
    lf_cuda_error e{};
    ev_ = timing ? ctx.api().timing_event_create(ctx.get(), &e) : ctx.api().event_create(ctx.get(), &e);
    if (!ev_) cuda_check(e.code ? e.code : -1, e, "creating a CUDA event", ctx.device());
}

CudaEvent::~CudaEvent() { ctx_.api().event_destroy(ev_); }

void CudaEvent::record() const {
    ctx_.run([&](lf_cuda_error* e) { return ctx_.api().event_record(ctx_.get(), ev_, e); }, "recording a CUDA event");
}

void CudaEvent::stream_waits() const {
    ctx_.run([&](lf_cuda_error* e) { return ctx_.api().stream_wait(ctx_.get(), ev_, e); }, "ordering the streams");
}

float CudaEvent::ms_until(const CudaEvent& later) const {
    float ms = 0;
    ctx_.run([&](lf_cuda_error* e) { return ctx_.api().event_elapsed(ev_, later.ev_, &ms, e); }, "timing the kernels");
    return ms;
}

void CudaEvent::host_waits() const {
    ctx_.run([&](lf_cuda_error* e) { return ctx_.api().event_wait_host(ev_, e); }, "waiting for a copy");
}

}  // namespace lf
