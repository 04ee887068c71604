#include "backend/cuda/pass_timer.h"

namespace lf {

PassTimer::PassTimer(const CudaContext& ctx, std::size_t steps) : ctx_(ctx) {
    for (Timed& t : passes_) t.steps.reserve(steps);
}

CudaEvent& PassTimer::event(Timed& t, std::size_t i) {
    if (t.events.size() <= i) t.events.push_back(std::make_unique<CudaEvent>(ctx_, true));
    return *t.events[i];
}

void PassTimer::begin(GraphPass pass) {
    Timed& t = passes_[std::size_t(pass)];
    t.steps.clear();
    event(t, 0).record();
}

void PassTimer::after(GraphPass pass, std::size_t step) {
    Timed& t = passes_[std::size_t(pass)];
    t.steps.push_back(step);
    event(t, t.steps.size()).record();
    t.pending = true;
}

void PassTimer::collect(PlanProfile& profile) {
    for (std::size_t p = 0; p < passes_.size(); ++p) {
        Timed& t = passes_[p];
        if (!t.pending) continue;
        t.pending = false;
        std::vector<bool> seen(profile.size(), false);
        for (std::size_t k = 0; k < t.steps.size(); ++k) {
            const std::size_t i = t.steps[k];
            LayerProfile& l = profile[i];
            const auto ns = std::int64_t(double(t.events[k]->ms_until(*t.events[k + 1])) * 1e6);
            (p == std::size_t(GraphPass::Forward) ? l.forward_ns : l.backward_ns) += ns;
            if (seen[i]) continue;
            seen[i] = true;
            ++(p == std::size_t(GraphPass::Forward) ? l.timed_forwards : l.timed_backwards);
        }
    }
}

}  // namespace lf
