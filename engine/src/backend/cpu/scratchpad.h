#pragma once
// oneDNN's scratchpad in user mode: every primitive of a plan borrows one shared buffer, sized
// by the largest need and allocated once when the plan is built, so those bytes appear in the
// plan's memory account (workspaces) instead of hiding in oneDNN's library-managed scratchpad.
// Sharing is safe because a plan executes its primitives one after another on one stream.
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <unordered_map>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

namespace lf {

class Scratchpad {
public:
    // `a` with the user scratchpad mode set; give it to every primitive descriptor of the plan.
    static dnnl::primitive_attr attr(dnnl::primitive_attr a = {});
    // Adds DNNL_ARG_SCRATCHPAD to args when pd needs one; its data arrives with allocate().
    void bind(const dnnl::primitive_desc_base& pd, const dnnl::engine& eng,
              std::unordered_map<int, dnnl::memory>& args);
    // The same for a reorder: the memory to pass to run_reorder (empty when none is needed).
    dnnl::memory bind(const dnnl::primitive_desc_base& pd, const dnnl::engine& eng);
    // Once every primitive is built: one buffer of the largest need, lent to all of them.
    void allocate();
    std::size_t bytes() const { return need_; }

private:
    std::vector<dnnl::memory> users_;
    std::size_t need_ = 0;
    std::unique_ptr<void, decltype(&std::free)> buffer_{nullptr, &std::free};
};

}  // namespace lf
