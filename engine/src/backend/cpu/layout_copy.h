#pragma once
// A weight array in the layout and type a primitive asks for: the user's array itself when they
// agree, else a buffer of the op's own and the reorder between them, run once per pass (a
// blocked kernel layout; bfloat16 rounded from the float32 master; a gradient reordered back).
// Into the pair-blocked bfloat16 layouts the copy is PairBlockedCopy's, not oneDNN's reorder.
//
// A copy of the model's own weights (Direction::FromWeights) is made once per change of them
// (Model::weights_version(): they were opened for writing): by the plan's optimizer update,
// right after it wrote them (CpuPlan::backward_and_update), or else by the first pass that reads
// it; the passes after skip it (an inference plan's batches, an evaluation).
#include <cstddef>
#include <cstdint>
#include <optional>

#include "backend/cpu/op.h"
#include "backend/cpu/pair_blocked_copy.h"

namespace lf {

class LayoutCopy {
public:
    // Convert before the primitive reads (from an array of the op's, or from the model's
    // weights), or after it writes.
    enum class Direction { FromUser, FromWeights, IntoUser };

    // The memory to hand the primitive.
    dnnl::memory bind(const dnnl::memory::desc& wanted, const dnnl::memory& user, CpuContext& ctx,
                      Direction direction = Direction::FromUser);
    void convert(const CpuContext& ctx);  // the reorder, when there is one and it is due
    std::size_t bytes() const { return own_ ? own_.get_desc().get_size() : 0; }
    const dnnl::memory& memory() const { return bound_; }

    // For the plan's update: the weights it copies, the copy of rows [begin, end) of them when
    // it is a PairBlockedCopy that cuts into bands (else null), and the mark that the copy is
    // of the weights at `version`.
    const float* source() const { return static_cast<const float*>(from_.get_data_handle()); }
    std::size_t source_floats() const { return from_.get_desc().get_size() / sizeof(float); }
    const PairBlockedCopy* bands() const { return pairs_ && pairs_->band_rows() > 0 ? &*pairs_ : nullptr; }
    void convert_rows(std::int64_t begin, std::int64_t end) const;
    void convert_now(const CpuContext& ctx) const;
    void made_at(std::uint64_t version) { made_at_ = version; }

private:
    dnnl::memory bound_, own_, from_, to_, scratch_;
    dnnl::reorder reorder_;
    std::optional<PairBlockedCopy> pairs_;
    bool from_weights_ = false;
    std::uint64_t made_at_ = 0;  // the weights version it was made at; 0: never
};

}  // namespace lf
