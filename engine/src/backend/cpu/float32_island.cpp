#include "backend/cpu/float32_island.h"

#include <deque>

#include "backend/cpu/bf16.h"

namespace lf {

namespace {

// One bf16 buffer of the step and its float32 copy. A buffer the step names twice (an in-place
// op's input and output) has one copy, so the float32 op sees the same aliasing.
struct Shadow {
    void* bf16 = nullptr;
    std::vector<float> f32;
};

class Float32Island final : public CpuOp {
public:
    Float32Island(const OpSetup& s, const BufferTypes& t, CpuOpFactory make) {
        OpSetup inner = s;
        const std::size_t out_count = std::size_t(s.batch * s.node.layer.output.elements());
        for (std::size_t i = 0; i < s.in.size(); ++i) {
            const std::size_t n = std::size_t(s.batch * s.node.inputs[i].elements());
            inner.in[i] = shadow(const_cast<float*>(s.in[i]), t.in[i], n, s.dry_run, widen_forward_);
            if (i < s.in_grad.size()) inner.in_grad[i] = shadow(s.in_grad[i], t.in_grad[i], n, s.dry_run, round_backward_);
        }
        inner.out = shadow(s.out, t.out, out_count, s.dry_run, round_forward_);
        inner.out_grad = shadow(s.out_grad, t.out_grad, out_count, s.dry_run, widen_backward_);
        inner.dtype = DType::Float32;
        op_ = make(inner);
    }

    void forward() override {
        for (Shadow* s : widen_forward_) from_bf16(static_cast<const bf16_t*>(s->bf16), s->f32.data(), s->f32.size());
        op_->forward();
        for (Shadow* s : round_forward_) to_bf16(s->f32.data(), static_cast<bf16_t*>(s->bf16), s->f32.size());
    }

    void backward() override {
        for (Shadow* s : widen_backward_) from_bf16(static_cast<const bf16_t*>(s->bf16), s->f32.data(), s->f32.size());
        op_->backward();
        for (Shadow* s : round_backward_) to_bf16(s->f32.data(), static_cast<bf16_t*>(s->bf16), s->f32.size());
    }

    std::string impl_info() const override { return "float32 with bfloat16 edges: " + op_->impl_info(); }
    std::optional<SoftmaxTail> softmax_tail() override { return op_->softmax_tail(); }
    void fuse_softmax_into_loss(bool on) override { op_->fuse_softmax_into_loss(on); }
    void seek_rng(std::uint64_t step) override { op_->seek_rng(step); }
    std::size_t workspace_bytes() const override { return op_->workspace_bytes() + shadow_bytes_; }
    bool backward_reads_output() const override { return op_->backward_reads_output(); }

private:
    // The float32 pointer the op gets for `p`: p itself when it is float32 (or absent), else its copy.
    float* shadow(float* p, DType type, std::size_t n, bool dry_run, std::vector<Shadow*>& conversions) {
        if (!p || type == DType::Float32) return p;
        Shadow* s = nullptr;
        for (Shadow& existing : shadows_)
            if (existing.bf16 == p) s = &existing;
        if (!s) {
            s = &shadows_.emplace_back();
            s->bf16 = p;
            s->f32.resize(dry_run ? 1 : n);
            shadow_bytes_ += n * sizeof(float);
        }
        if (!dry_run) conversions.push_back(s);
        return s->f32.data();
    }

    std::deque<Shadow> shadows_;  // stable addresses
    std::vector<Shadow*> widen_forward_, round_forward_, widen_backward_, round_backward_;
    std::size_t shadow_bytes_ = 0;
    std::unique_ptr<CpuOp> op_;
};

}  // namespace

std::unique_ptr<CpuOp> make_float32_island(const OpSetup& setup, const BufferTypes& types, CpuOpFactory make) {
    return std::make_unique<Float32Island>(setup, types, make);
}

}  // namespace lf
