#include "backend/cpu/layout_copy.h"

#include <cstring>

#include "layerforge/graph/model.h"

namespace lf {

dnnl::memory LayoutCopy::bind(const dnnl::memory::desc& wanted, const dnnl::memory& user, CpuContext& ctx,
                              Direction direction) {
    if (wanted == user.get_desc()) return bound_ = user;
    own_ = dnnl::memory(wanted, ctx.eng);
    const bool into_user = direction == Direction::IntoUser;
    from_ = into_user ? own_ : user;
    to_ = into_user ? user : own_;
    from_weights_ = direction == Direction::FromWeights && ctx.model;
    if (from_weights_) ctx.weight_copies.push_back(this);
    if (!into_user) pairs_ = PairBlockedCopy::plan(user.get_desc(), wanted);
    if (pairs_) {  // the padding of its edge blocks stays zero, as the primitives expect
        std::memset(own_.get_data_handle(), 0, wanted.get_size());
        return bound_ = own_;
    }
    dnnl::reorder::primitive_desc pd(from_, to_, Scratchpad::attr());
    scratch_ = ctx.scratch.bind(pd, ctx.eng);
    reorder_ = dnnl::reorder(pd);
    return bound_ = own_;
}

void LayoutCopy::convert(const CpuContext& ctx) {
    if (!from_weights_) return convert_now(ctx);
    // Made (by the update or an earlier pass) and nothing opened the weights for writing since.
    const std::uint64_t version = ctx.model->weights_version();
    if (made_at_ != 0 && made_at_ == version) return;
    convert_now(ctx);
    made_at_ = version;
}

void LayoutCopy::convert_now(const CpuContext& ctx) const {
    if (pairs_)
        pairs_->run(static_cast<const float*>(from_.get_data_handle()), static_cast<std::uint16_t*>(own_.get_data_handle()));
    else if (reorder_)
        run_reorder(reorder_, ctx.strm, from_, to_, scratch_);
}

void LayoutCopy::convert_rows(std::int64_t begin, std::int64_t end) const {
    pairs_->run_rows(source(), static_cast<std::uint16_t*>(own_.get_data_handle()), begin, end);
}

}  // namespace lf
