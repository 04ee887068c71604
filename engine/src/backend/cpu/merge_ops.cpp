// Add on oneDNN sum, Concatenate on oneDNN concat. Their backward passes are copies:
// Add hands the output gradient to every input, Concatenate splits it.
#include <cstring>

#include "backend/cpu/ops.h"

namespace lf {

std::size_t concat_axis(std::int64_t axis, std::size_t rank);  // layers/merge.cpp

namespace {

class AddOp : public CpuOp {
public:
    explicit AddOp(const OpSetup& s)
        : ctx_(s.ctx), bytes_(std::size_t(s.batch * s.node.layer.output.elements()) * dtype_size(s.dtype)),
          out_grad_(s.out_grad), in_grad_(s.in_grad) {
        auto md = plain_md({s.batch * s.node.layer.output.elements()}, s.dtype);
        std::vector<dnnl::memory::desc> mds(s.in.size(), md);
        dnnl::sum::primitive_desc pd(md, std::vector<float>(s.in.size(), 1.f), mds, ctx_.eng, Scratchpad::attr());
        sum_ = dnnl::sum(pd);
        for (std::size_t i = 0; i < s.in.size(); ++i) args_[DNNL_ARG_MULTIPLE_SRC + int(i)] = wrap(md, ctx_, s.in[i]);
        args_[DNNL_ARG_DST] = wrap(md, ctx_, s.out);
        ctx_.scratch.bind(pd, ctx_.eng, args_);
        impl_ = pd.impl_info_str();
    }
    void forward() override { run(sum_, ctx_.strm, args_); }
    void backward() override {
        for (float* g : in_grad_)
            if (g) std::memcpy(g, out_grad_, bytes_);
    }
    std::string impl_info() const override { return impl_; }
    bool backward_reads_output() const override { return false; }

private:
    CpuContext& ctx_;
    std::size_t bytes_;
    const float* out_grad_;
    std::vector<float*> in_grad_;
    dnnl::primitive sum_;
    std::unordered_map<int, dnnl::memory> args_;
    std::string impl_;
};

// Every tensor is viewed as (outer, axis extent x inner): outer runs over batch and the
// dimensions before the axis, so each input contributes one contiguous block per outer index.
class ConcatenateOp : public CpuOp {
public:
    explicit ConcatenateOp(const OpSetup& s)
        : ctx_(s.ctx), out_grad_(reinterpret_cast<const char*>(s.out_grad)), elem_(dtype_size(s.dtype)) {
        for (float* g : s.in_grad) in_grad_.push_back(reinterpret_cast<char*>(g));
        const Shape& out = s.node.layer.output;
        std::size_t axis = concat_axis(param_int(s.node.params, "axis"), out.rank());
        outer_ = s.batch;
        for (std::size_t d = 0; d < axis; ++d) outer_ *= out[d];
        std::vector<dnnl::memory::desc> mds;
        for (std::size_t i = 0; i < s.in.size(); ++i) {
            std::int64_t block = s.node.inputs[i].elements() * s.batch / outer_;
            blocks_.push_back(block);
            mds.push_back(plain_md({outer_, block}, s.dtype));
        }
        std::int64_t total = out.elements() * s.batch / outer_;
        dnnl::concat::primitive_desc pd(plain_md({outer_, total}, s.dtype), 1, mds, ctx_.eng, Scratchpad::attr());
        concat_ = dnnl::concat(pd);
        for (std::size_t i = 0; i < s.in.size(); ++i) args_[DNNL_ARG_MULTIPLE_SRC + int(i)] = wrap(mds[i], ctx_, s.in[i]);
        args_[DNNL_ARG_DST] = wrap(pd.dst_desc(), ctx_, s.out);
        ctx_.scratch.bind(pd, ctx_.eng, args_);
        impl_ = pd.impl_info_str();
        total_ = total;
    }
    void forward() override { run(concat_, ctx_.strm, args_); }
    void backward() override {
        std::int64_t offset = 0;
        for (std::size_t i = 0; i < blocks_.size(); ++i) {
            if (char* g = in_grad_[i])  // bytes: the buffers are of either type
                for (std::int64_t o = 0; o < outer_; ++o)
                    std::memcpy(g + std::size_t(o * blocks_[i]) * elem_, out_grad_ + std::size_t(o * total_ + offset) * elem_,
                                std::size_t(blocks_[i]) * elem_);
            offset += blocks_[i];
        }
    }
    std::string impl_info() const override { return impl_; }
    bool backward_reads_output() const override { return false; }

private:
    CpuContext& ctx_;
    const char* out_grad_;
    std::size_t elem_;
    std::vector<char*> in_grad_;
    std::int64_t outer_ = 1, total_ = 0;
    std::vector<std::int64_t> blocks_;
    dnnl::primitive concat_;
    std::unordered_map<int, dnnl::memory> args_;
    std::string impl_;
};

}  // namespace

std::unique_ptr<CpuOp> make_add_op(const OpSetup& s) { return std::make_unique<AddOp>(s); }
std::unique_ptr<CpuOp> make_concatenate_op(const OpSetup& s) { return std::make_unique<ConcatenateOp>(s); }

}  // namespace lf
