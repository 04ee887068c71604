// Add, Concatenate and Multiply. Add hands the output gradient to every input, Concatenate
// splits it (2-D copies of each input's block per outer index), Multiply gives each input the
// output gradient times the other inputs, summed over the pixels of a (1, 1, C) operand.
#include "backend/cuda/cuda_op_families.h"
#include "layerforge/layers/registry.h"

namespace lf {

std::size_t concat_axis(std::int64_t axis, std::size_t rank);        // layers/merge.cpp
bool multiply_broadcasts(const Shape& operand, const Shape& full);  // layers/merge.cpp

namespace {

void device_copy(const CudaContext& ctx, float* to, const float* from, std::size_t n, std::size_t elem) {
    ctx.run([&](lf_cuda_error* e) { return ctx.api().copy_on_device(ctx.get(), to, from, n * elem, e); }, "copy");
}

class AddOp final : public CudaOp {
public:
    explicit AddOp(const CudaOpSetup& s)
        : ctx_(s.ctx), in_(s.in), in_grad_(s.in_grad), out_(s.out), out_grad_(s.out_grad),
          count_(std::size_t(s.batch * s.node.layer.output.elements())), dtype_(s.dtype), elem_(s.elem()) {}

    void forward() override {
        device_copy(ctx_, out_, in_[0], count_, elem_);
        for (std::size_t i = 1; i < in_.size(); ++i)
            ctx_.run([&](lf_cuda_error* e) { return ctx_.api().add(ctx_.get(), dtype_, out_, in_[i], count_, e); }, "add");
    }
    void backward() override {
        for (float* g : in_grad_)
            if (g) device_copy(ctx_, g, out_grad_, count_, elem_);
    }
    std::string impl_info() const override { return "lf_cuda:add"; }

private:
    const CudaContext& ctx_;
    std::vector<const float*> in_;
    std::vector<float*> in_grad_;
    float* out_;
    float* out_grad_;
    std::size_t count_;
    int dtype_;
    std::size_t elem_;
};

// Every tensor as (outer, axis extent x inner): each input is one block of each outer row.
class ConcatenateOp final : public CudaOp {
public:
    explicit ConcatenateOp(const CudaOpSetup& s)
        : ctx_(s.ctx), in_(s.in), in_grad_(s.in_grad), out_(s.out), out_grad_(s.out_grad), elem_(s.elem()) {
        const Shape& out = s.node.layer.output;
        const std::size_t axis = concat_axis(param_int(s.node.params, "axis"), out.rank());
        outer_ = std::size_t(s.batch);
        for (std::size_t d = 0; d < axis; ++d) outer_ *= std::size_t(out[d]);
        for (const Shape& x : s.node.inputs) blocks_.push_back(std::size_t(x.elements() * s.batch) / outer_);
        total_ = std::size_t(out.elements() * s.batch) / outer_;
    }

    void forward() override {
        std::size_t at = 0;
        for (std::size_t i = 0; i < in_.size(); at += blocks_[i++])
            copy(advance(out_, at, elem_), total_, in_[i], blocks_[i], blocks_[i]);
    }
    void backward() override {
        std::size_t at = 0;
        for (std::size_t i = 0; i < in_grad_.size(); at += blocks_[i++])
            if (in_grad_[i]) copy(in_grad_[i], blocks_[i], advance(out_grad_, at, elem_), total_, blocks_[i]);
    }
    std::string impl_info() const override { return "cudaMemcpy2DAsync"; }

private:
    void copy(float* dst, std::size_t dst_row, const float* src, std::size_t src_row, std::size_t width) const {
        ctx_.run([&](lf_cuda_error* e) {
            return ctx_.api().copy_2d(ctx_.get(), dst, dst_row * elem_, src, src_row * elem_, width * elem_, outer_, e);
        }, "concatenate");
    }
    const CudaContext& ctx_;
    std::vector<const float*> in_;
    std::vector<float*> in_grad_;
    float* out_;
    const float* out_grad_;
    std::size_t elem_;
    std::size_t outer_ = 1, total_ = 0;
    std::vector<std::size_t> blocks_;
};

struct MultiplyGeometry {
    std::int64_t pixels = 1, channels = 1;
    std::vector<bool> broadcast;
    explicit MultiplyGeometry(const NodeInfo& n) {
        const Shape& full = n.layer.output;
        channels = full.rank() == 0 ? 1 : full.dims.back();
        pixels = full.elements() / channels;
        for (const Shape& x : n.inputs) broadcast.push_back(multiply_broadcasts(x, full));
    }
    bool any_broadcast() const {
        for (bool b : broadcast)
            if (b) return true;
        return false;
    }
};

class MultiplyOp final : public CudaOp {
public:
    explicit MultiplyOp(const CudaOpSetup& s)
        : ctx_(s.ctx), geo_(s.node), in_(s.in), in_grad_(s.in_grad), out_(s.out), out_grad_(s.out_grad),
          batch_(s.batch), count_(std::size_t(s.batch * s.node.layer.output.elements())), product_(s.workspace),
          dtype_(s.dtype), elem_(s.elem()) {}

    // out = 1 * x0 * x1 * ...: the CPU loop's order of products. In 16 bits (no typed fill): a
    // full-sized operand copied, times the others.
    void forward() override {
        if (dtype_ == LF_CUDA_F32) {
            ctx_.run([&](lf_cuda_error* e) { return ctx_.api().fill(ctx_.get(), out_, 1.f, count_, e); }, "multiply");
            for (std::size_t i = 0; i < in_.size(); ++i) multiply_by(out_, i);
            return;
        }
        std::size_t full = 0;
        while (geo_.broadcast[full]) ++full;  // the output's shape is one operand's
        device_copy(ctx_, out_, in_[full], count_, elem_);
        for (std::size_t i = 0; i < in_.size(); ++i)
            if (i != full) multiply_by(out_, i);
    }

    void backward() override {
        for (std::size_t i = 0; i < in_grad_.size(); ++i) {
            if (!in_grad_[i]) continue;
            float* g = geo_.broadcast[i] ? product_ : in_grad_[i];
            device_copy(ctx_, g, out_grad_, count_, elem_);
            for (std::size_t j = 0; j < in_.size(); ++j)
                if (j != i) multiply_by(g, j);
            if (geo_.broadcast[i])
                ctx_.run([&](lf_cuda_error* e) {
                    return ctx_.api().sum_pixels(ctx_.get(), dtype_, product_, in_grad_[i], batch_, geo_.pixels, geo_.channels, e);
                }, "multiply gradient");
        }
    }
    std::string impl_info() const override { return "lf_cuda:multiply"; }

private:
    void multiply_by(float* dst, std::size_t j) const {
        ctx_.run([&](lf_cuda_error* e) {
            return ctx_.api().multiply(ctx_.get(), dtype_, dst, in_[j], count_, geo_.pixels, geo_.channels, geo_.broadcast[j], e);
        }, "multiply");
    }
    const CudaContext& ctx_;
    MultiplyGeometry geo_;
    std::vector<const float*> in_;
    std::vector<float*> in_grad_;
    float* out_;
    const float* out_grad_;
    std::int64_t batch_;
    std::size_t count_;
    float* product_;  // a broadcast operand's gradient before its sum over the pixels
    int dtype_;
    std::size_t elem_;
};

}  // namespace

const CudaOpFamily kCudaAdd{
    .unsupported = nullptr, .needs = nullptr, .reads_output = nullptr,
    .make = [](const CudaOpSetup& s) -> std::unique_ptr<CudaOp> { return std::make_unique<AddOp>(s); },
};

const CudaOpFamily kCudaConcatenate{
    .unsupported = nullptr, .needs = nullptr, .reads_output = nullptr,
    .make = [](const CudaOpSetup& s) -> std::unique_ptr<CudaOp> { return std::make_unique<ConcatenateOp>(s); },
};

const CudaOpFamily kCudaMultiply{
    .unsupported = nullptr,
    .needs = [](const NodeInfo& n, std::int64_t batch, bool training, DType) {
        const bool product = training && MultiplyGeometry(n).any_broadcast();
        return CudaOpNeeds{.workspace_floats = product ? std::size_t(batch * n.layer.output.elements()) : 0};
    },
    .reads_output = nullptr,
    .make = [](const CudaOpSetup& s) -> std::unique_ptr<CudaOp> { return std::make_unique<MultiplyOp>(s); },
};

}  // namespace lf
