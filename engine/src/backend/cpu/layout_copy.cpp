#include "backend/cpu/layout_copy.h"

namespace lf {

dnnl::memory LayoutCopy::bind(const dnnl::memory::desc& wanted, const dnnl::memory& user, CpuContext& ctx,
                              Direction direction) {
    if (wanted == user.get_desc()) return bound_ = user;
    own_ = dnnl::memory(wanted, ctx.eng);
    from_ = direction == Direction::FromUser ? user : own_;
    to_ = direction == Direction::FromUser ? own_ : user;
    dnnl::reorder::primitive_desc pd(from_, to_, Scratchpad::attr());
    scratch_ = ctx.scratch.bind(pd, ctx.eng);
    reorder_ = dnnl::reorder(pd);
    return bound_ = own_;
}

void LayoutCopy::convert(const CpuContext& ctx) const {
    if (reorder_) run_reorder(reorder_, ctx.strm, from_, to_, scratch_);
}

}  // namespace lf
