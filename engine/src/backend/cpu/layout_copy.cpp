#include "backend/cpu/layout_copy.h"

#include <cstring>

namespace lf {

dnnl::memory LayoutCopy::bind(const dnnl::memory::desc& wanted, const dnnl::memory& user, CpuContext& ctx,
                              Direction direction) {
    if (wanted == user.get_desc()) return bound_ = user;
    own_ = dnnl::memory(wanted, ctx.eng);
    from_ = direction == Direction::FromUser ? user : own_;
    to_ = direction == Direction::FromUser ? own_ : user;
    if (direction == Direction::FromUser) pairs_ = PairBlockedCopy::plan(user.get_desc(), wanted);
    if (pairs_) {  // the padding of its edge blocks stays zero, as the primitives expect
        std::memset(own_.get_data_handle(), 0, wanted.get_size());
        return bound_ = own_;
    }
    dnnl::reorder::primitive_desc pd(from_, to_, Scratchpad::attr());
    scratch_ = ctx.scratch.bind(pd, ctx.eng);
    reorder_ = dnnl::reorder(pd);
    return bound_ = own_;
}

void LayoutCopy::convert(const CpuContext& ctx) const {
    if (pairs_)
        pairs_->run(static_cast<const float*>(from_.get_data_handle()), static_cast<std::uint16_t*>(own_.get_data_handle()));
    else if (reorder_)
        run_reorder(reorder_, ctx.strm, from_, to_, scratch_);
}

}  // namespace lf
