#include "backend/cpu/scratchpad.h"

#include <algorithm>
#include <new>

namespace lf {

dnnl::primitive_attr Scratchpad::attr(dnnl::primitive_attr a) {
    a.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return a;
}

dnnl::memory Scratchpad::bind(const dnnl::primitive_desc_base& pd, const dnnl::engine& eng) {
    const dnnl::memory::desc md = pd.scratchpad_desc();
    if (md.get_size() == 0) return {};
    need_ = std::max(need_, md.get_size());
    users_.emplace_back(md, eng, nullptr);  // the buffer arrives with allocate()
    return users_.back();
}

void Scratchpad::bind(const dnnl::primitive_desc_base& pd, const dnnl::engine& eng,
                      std::unordered_map<int, dnnl::memory>& args) {
    if (dnnl::memory m = bind(pd, eng)) args[DNNL_ARG_SCRATCHPAD] = m;
}

void Scratchpad::allocate() {
    if (need_ == 0) return;
    const std::size_t align = 4096;  // page-aligned: ample for any primitive's own alignment
    buffer_.reset(std::aligned_alloc(align, (need_ + align - 1) / align * align));
    if (!buffer_) throw std::bad_alloc();
    for (dnnl::memory& m : users_) m.set_data_handle(buffer_.get());
}

}  // namespace lf
