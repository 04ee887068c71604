#pragma once
// One plan input's way in: the host's batch is written into pinned memory and copied on the
// context's copy stream into a device staging buffer, so the copy overlaps whatever the
// compute stream still runs (the previous step's backward pass and update); the compute stream
// waits for that copy alone (an event) and moves the batch into the plan's input buffer, where
// the pass reads it. Two slots take turns: a batch's pinned and staging memory are written
// again only after its copies have run (events), so a copy never overwrites a batch in use.
// A 16-bit input buffer (a mixed policy) gets the batch rounded on that move. Everything is
// allocated when the plan is built.
#include <array>
#include <memory>

#include "backend/cuda/pinned_upload.h"

namespace lf {

class InputStaging {
public:
    // staging: two device buffers of `floats` floats each beside the plan's input buffer `input`,
    // of `floats` elements of lf_cuda_dtype `dtype`.
    InputStaging(const CudaContext& ctx, std::array<float*, 2> staging, float* input, std::size_t floats,
                 int dtype = LF_CUDA_F32);

    void upload(const float* host);
    int next_slot() const { return next_; }

private:
    struct Slot {
        std::unique_ptr<PinnedUpload> pinned;
        std::unique_ptr<CudaEvent> consumed;  // the compute stream has moved the batch on
        float* staging = nullptr;
    };
    const CudaContext& ctx_;
    std::array<Slot, 2> slots_;
    float* input_;
    std::size_t floats_;
    int dtype_;
    int next_ = 0;
};

}  // namespace lf
