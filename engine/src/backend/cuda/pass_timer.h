#pragma once
// Note [Kernel times on the GPU]
// The Profile panel's time per layer comes, on a GPU, from timing events recorded on the
// compute stream between the steps' calls. A replayed CUDA graph has no place for them, so one
// pass of each kind in kTimedEvery runs eagerly with the events instead (the first at pass
// kTimedFirst, after the warm-up and the capture), and its times are read when the profile is
// (which waits for that pass), or before the next timed pass records again. The profile's
// timed_forwards and timed_backwards count the passes the times are the sum of.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "backend/cuda/cuda_event.h"
#include "backend/cuda/step_graphs.h"
#include "layerforge/backend/plan.h"

namespace lf {

class PassTimer {
public:
    static constexpr std::int64_t kTimedFirst = 20, kTimedEvery = 100;
    // A pass of `runs` steps (those that queue calls), in the order a pass runs them.
    PassTimer(const CudaContext& ctx, std::size_t steps);

    // Whether the `n`-th run of the pass (from 1) is timed.
    static bool due(std::int64_t n) { return n >= kTimedFirst && (n - kTimedFirst) % kTimedEvery == 0; }

    // Around a timed pass: begin() before its first step's calls, after(i) after step i's.
    void begin(GraphPass pass);
    void after(GraphPass pass, std::size_t step);
    // The times of the passes timed since the last collect() into `profile`.
    void collect(PlanProfile& profile);

private:
    struct Timed {
        std::vector<std::unique_ptr<CudaEvent>> events;  // made on the first timed pass
        std::vector<std::size_t> steps;                  // the step each event after the first ends
        bool pending = false;
    };
    CudaEvent& event(Timed& t, std::size_t i);

    const CudaContext& ctx_;
    std::array<Timed, 2> passes_;  // by GraphPass
};

}  // namespace lf
