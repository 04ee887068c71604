#include "backend/cuda/input_staging.h"

namespace lf {

InputStaging::InputStaging(const CudaContext& ctx, std::array<float*, 2> staging, float* input, std::size_t floats,
                           int dtype)
    : ctx_(ctx), input_(input), floats_(floats), dtype_(dtype) {
    for (std::size_t i = 0; i < 2; ++i) {
        slots_[i].pinned = std::make_unique<PinnedUpload>(ctx, floats * sizeof(float), "the plan's input batches");
        slots_[i].consumed = std::make_unique<CudaEvent>(ctx);
        slots_[i].staging = staging[i];
    }
}

void InputStaging::upload(const float* host) {
    Slot& s = slots_[std::size_t(next_)];
    const std::size_t bytes = floats_ * sizeof(float);
    s.pinned->to_device_on_copy_stream(s.staging, host, bytes, s.consumed.get());
    s.pinned->done().stream_waits();
    ctx_.run([&](lf_cuda_error* e) {
        return dtype_ == LF_CUDA_F32 ? ctx_.api().copy_on_device(ctx_.get(), input_, s.staging, bytes, e)
                                     : ctx_.api().cast(ctx_.get(), LF_CUDA_F32, s.staging, dtype_, input_, floats_, e);
    }, "moving the batch into the plan");
    s.consumed->record();
    next_ ^= 1;
}

}  // namespace lf
