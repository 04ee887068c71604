#pragma once
// A weight array in the layout and type a primitive asks for: the user's array itself when they
// agree, else a buffer of the op's own and the reorder between them, run once per pass (a
// blocked kernel layout; bfloat16 rounded from the float32 master; a gradient reordered back).
// Into the pair-blocked bfloat16 layouts the copy is PairBlockedCopy's, not oneDNN's reorder.
#include <cstddef>
#include <optional>

#include "backend/cpu/op.h"
#include "backend/cpu/pair_blocked_copy.h"

namespace lf {

class LayoutCopy {
public:
    enum class Direction { FromUser, IntoUser };  // convert before the primitive reads, or after it writes

    // The memory to hand the primitive.
    dnnl::memory bind(const dnnl::memory::desc& wanted, const dnnl::memory& user, CpuContext& ctx,
                      Direction direction = Direction::FromUser);
    void convert(const CpuContext& ctx) const;  // the reorder, when there is one
    std::size_t bytes() const { return own_ ? own_.get_desc().get_size() : 0; }
    const dnnl::memory& memory() const { return bound_; }

private:
    dnnl::memory bound_, own_, from_, to_, scratch_;
    dnnl::reorder reorder_;
    std::optional<PairBlockedCopy> pairs_;
};

}  // namespace lf
