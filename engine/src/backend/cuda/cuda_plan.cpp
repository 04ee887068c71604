#include "backend/cuda/cuda_plan.h"

#include <algorithm>

#include "backend/cuda/cuda_ops.h"
#include "backend/cuda/device_buffer.h"
#include "backend/cuda/oom_message.h"
#include "layerforge/core/error.h"
#include "layerforge/graph/schedule.h"

namespace lf {

namespace {

// Runs one op's call; a failure names the layer it belongs to, then what failed and why.
template <class F>
void for_layer(const ScheduledStep& s, F&& call) {
    try {
        call();
    } catch (const Error& e) {
        throw Error(e.kind(), "layer '" + s.node + "' (" + s.info->spec->type + "): " + e.what());
    }
}

// cudaMalloc aligns to 256 bytes; buffers carved from one block keep that alignment.
constexpr std::size_t kAlign = 256 / sizeof(float);

std::size_t aligned(std::size_t floats) { return (floats + kAlign - 1) / kAlign * kAlign; }

ScheduleOptions schedule_options(const PlanOptions& o) {
    // No rewrites: the CUDA ops do not fold BatchNormalization or run ReLUs in place yet.
    return {.batch = o.batch, .training = o.mode == PlanMode::Train, .seed = o.seed, .input_grads = o.input_grads,
            .fuse = false, .precision = o.precision};
}

// Where each buffer and workspace lies in the plan's block, in floats, and the totals. The
// scratch (cuDNN's convolution workspaces) is one region at the end, as large as the largest
// step asks: the ops run one after another on one stream, and none keeps it between calls.
struct Layout {
    std::vector<std::size_t> buffer_at, workspace_at;
    std::size_t scratch_at = 0, scratch_bytes = 0;
    std::size_t floats = 0;
    MemoryBreakdown bytes;
};

Layout lay_out(const Schedule& s) {
    Layout l;
    for (const PlannedBuffer& b : s.buffers) {
        l.buffer_at.push_back(l.floats);
        l.floats += aligned(b.floats);
    }
    l.bytes.activations = s.bytes(BufferKind::Activation);
    l.bytes.gradients = s.bytes(BufferKind::Gradient);
    for (const ScheduledStep& st : s.steps) {
        const CudaOpNeeds n = cuda_op_needs(st, s.options.batch, s.options.training);
        l.workspace_at.push_back(l.floats);
        l.floats += aligned(n.workspace_floats);
        l.bytes.workspaces += n.workspace_floats * sizeof(float);
        l.scratch_bytes = std::max(l.scratch_bytes, n.scratch_bytes);
    }
    l.scratch_at = l.floats;
    l.floats += aligned((l.scratch_bytes + sizeof(float) - 1) / sizeof(float));
    l.bytes.workspaces += l.scratch_bytes;
    return l;
}

}  // namespace

struct CudaPlan::Impl {
    const CudaContext& ctx;
    Schedule schedule;
    Layout layout;
    DeviceBuffer block;
    std::vector<std::unique_ptr<CudaOp>> ops;  // per step; null where nothing runs
    CudaOp* output_op = nullptr;
    PlanProfile profile;

    Impl(const Model& model, const PlanOptions& o, const CudaContext& c, DeviceArena& arena, CudaWeights w)
        : ctx(c), schedule(make_schedule(model, schedule_options(o), cuda_backward_reads_output)),
          layout(lay_out(schedule)) {
        if (o.precision != Precision::Float32)
            throw input_error(std::string("the CUDA backend runs float32 only; ") + to_string(o.precision) + " is not supported yet");
        for (const ScheduledStep& st : schedule.steps)
            if (std::string why = cuda_op_unsupported(st); !why.empty()) throw input_error(why + " (on " + o.device + ")");
        allocate(model, o, arena);
        for (std::size_t i = 0; i < schedule.steps.size(); ++i) ops.push_back(build(model, i, w));
        output_op = ops[schedule.output_step].get();
        profile = CudaPlan::describe(model, o);  // each step's bytes; the passes add their counts
    }

    // One block for everything; a refusal names the batch size whose schedule would fit.
    void allocate(const Model& model, const PlanOptions& o, DeviceArena& arena) {
        const std::size_t bytes = layout.floats * sizeof(float);
        const BatchFit fit{o.batch,
                           [&](std::int64_t b) {
                               PlanOptions at = o;
                               at.batch = b;
                               return std::uint64_t(estimate(model, at).total());
                           },
                           arena.available()};
        block = DeviceBuffer(arena, bytes, layout.bytes,
                             std::string(o.mode == PlanMode::Train ? "the training" : "the inference") + " plan at batch size " +
                                 std::to_string(o.batch),
                             fit);
        ctx.run([&](lf_cuda_error* e) { return ctx.api().fill(ctx.get(), block.floats(), 0.f, layout.floats, e); },
                "clearing the plan's buffers");
    }

    float* buffer(int id) const {
        return id == kNoBuffer ? nullptr : block.floats() + layout.buffer_at[std::size_t(id)];
    }
    std::size_t floats(int id) const { return schedule.buffers[std::size_t(id)].floats; }

    std::unique_ptr<CudaOp> build(const Model& model, std::size_t i, CudaWeights w) {
        const ScheduledStep& s = schedule.steps[i];
        if (!s.runs) return nullptr;
        const bool training = schedule.options.training && !(s.frozen && s.grad == kNoBuffer);
        CudaOpSetup setup{.ctx = ctx, .node = *s.info, .batch = schedule.options.batch, .training = training,
                          .frozen = s.frozen};
        setup.seed = s.seed;
        setup.scratch = block.floats() + layout.scratch_at;
        setup.scratch_bytes = layout.scratch_bytes;
        for (int id : s.in) setup.in.push_back(buffer(id));
        for (int id : s.in_grad) setup.in_grad.push_back(buffer(id));
        setup.out = buffer(s.out);
        setup.out_grad = buffer(s.grad);
        for (const WeightRef* r : model.weights_of(s.node)) {
            setup.w.push_back(w.weights + r->offset);
            setup.w_grad.push_back(w.grads + r->offset);
        }
        setup.workspace = block.floats() + layout.workspace_at[i];
        std::unique_ptr<CudaOp> op;
        for_layer(s, [&] { op = make_cuda_op(setup); });
        return op;
    }

    // The consumers' gradients summed into the producer's buffer, as the CPU plan sums them.
    void sum_slots(const ScheduledStep& s) const {
        float* dst = buffer(s.grad);
        bool started = false;
        for (int slot : s.grad_slots) started = started || slot == s.grad;
        for (int slot : s.grad_slots) {
            if (slot == s.grad) continue;
            const float* src = buffer(slot);
            const std::size_t n = floats(s.grad);
            if (!started) {
                ctx.run([&](lf_cuda_error* e) { return ctx.api().copy_on_device(ctx.get(), dst, src, n * 4, e); },
                        "summing gradients");
                started = true;
            } else {
                ctx.run([&](lf_cuda_error* e) { return ctx.api().add(ctx.get(), dst, src, n, e); }, "summing gradients");
            }
        }
    }

    void to_device(float* dst, const float* host, std::size_t n) const {
        ctx.run([&](lf_cuda_error* e) { return ctx.api().copy_to_device(ctx.get(), dst, host, n * sizeof(float), e); },
                "copying to the device");
    }
    void to_host(float* host, const float* src, std::size_t n) const {
        ctx.run([&](lf_cuda_error* e) { return ctx.api().copy_to_host(ctx.get(), host, src, n * sizeof(float), e); },
                "copying from the device");
    }
    std::size_t output_floats() const { return std::size_t(schedule.options.batch * schedule.output_width); }
};

CudaPlan::CudaPlan(const Model& model, const PlanOptions& options, const CudaContext& ctx, DeviceArena& arena,
                   CudaWeights weights)
    : Plan(options), impl_(std::make_unique<Impl>(model, options, ctx, arena, weights)) {}

CudaPlan::~CudaPlan() = default;

MemoryBreakdown CudaPlan::estimate(const Model& model, const PlanOptions& options) {
    return lay_out(make_schedule(model, schedule_options(options), cuda_backward_reads_output)).bytes;
}

PlanProfile CudaPlan::describe(const Model& model, const PlanOptions& options) {
    const Schedule s = make_schedule(model, schedule_options(options), cuda_backward_reads_output);
    std::vector<bool> charged(s.buffers.size(), false);
    auto charge = [&](int id) -> std::size_t {
        if (id == kNoBuffer || charged[std::size_t(id)]) return 0;
        charged[std::size_t(id)] = true;
        return s.buffers[std::size_t(id)].bytes();
    };
    PlanProfile out;
    for (const ScheduledStep& st : s.steps) {
        LayerProfile p;
        p.node = st.node;
        p.bytes = charge(st.out) + charge(st.grad) +
                  cuda_op_needs(st, s.options.batch, s.options.training).workspace_floats * sizeof(float);
        for (int slot : st.grad_slots) p.bytes += charge(slot);
        out.push_back(p);
    }
    // The shared scratch goes to the step that asks most (the first of equals).
    const std::size_t scratch = lay_out(s).scratch_bytes;
    for (std::size_t i = 0; i < s.steps.size() && scratch; ++i)
        if (cuda_op_needs(s.steps[i], s.options.batch, s.options.training).scratch_bytes == scratch) {
            out[i].bytes += scratch;
            break;
        }
    return out;
}

std::size_t CudaPlan::input_count() const { return impl_->schedule.inputs.size(); }

std::int64_t CudaPlan::input_width(std::size_t i) const {
    return std::int64_t(impl_->floats(impl_->schedule.inputs.at(i))) / impl_->schedule.options.batch;
}

void CudaPlan::set_input(const float* host, std::size_t i) {
    const int id = impl_->schedule.inputs.at(i);
    impl_->to_device(impl_->buffer(id), host, impl_->floats(id));
}

std::int64_t CudaPlan::output_width() const { return impl_->schedule.output_width; }

void CudaPlan::read_output(float* host) const {
    impl_->to_host(host, impl_->buffer(impl_->schedule.output), impl_->output_floats());
}

bool CudaPlan::output_is_softmax() const { return impl_->output_op && impl_->output_op->softmax_tail(); }

void CudaPlan::read_logits(float* host) const {
    auto tail = impl_->output_op ? impl_->output_op->softmax_tail() : std::nullopt;
    if (!tail) throw runtime_error("read_logits() on a plan whose output is not a softmax");
    impl_->to_host(host, tail->logits, impl_->output_floats());
}

void CudaPlan::seek_rng(std::uint64_t steps) {
    for (auto& op : impl_->ops)
        if (op) op->seek_rng(steps);
}

// Kernel times need CUDA events around each op (not yet): the profile counts the passes only.
void CudaPlan::forward() {
    for (std::size_t i = 0; i < impl_->ops.size(); ++i)
        if (impl_->ops[i]) {
            for_layer(impl_->schedule.steps[i], [&] { impl_->ops[i]->forward(); });
            ++impl_->profile[i].forwards;
        }
}

void CudaPlan::set_output_grad(const float* host, OutputGrad of) {
    if (options().mode != PlanMode::Train) throw runtime_error("set_output_grad() on an inference plan");
    const bool logits = of == OutputGrad::Logits;
    float* dst = impl_->buffer(impl_->schedule.output_grad);
    if (logits) {
        auto tail = impl_->output_op ? impl_->output_op->softmax_tail() : std::nullopt;
        if (!tail) throw runtime_error("a gradient of logits for a plan whose output is not a softmax");
        dst = tail->logits_grad;
    }
    if (impl_->output_op) impl_->output_op->fuse_softmax_into_loss(logits);
    impl_->to_device(dst, host, impl_->output_floats());
}

void CudaPlan::backward() {
    if (options().mode != PlanMode::Train) throw runtime_error("backward() on an inference plan");
    for (std::size_t i = impl_->ops.size(); i-- > 0;) {
        const ScheduledStep& s = impl_->schedule.steps[i];
        if (s.grad == kNoBuffer) continue;
        if (!s.grad_slots.empty()) impl_->sum_slots(s);
        if (impl_->ops[i]) for_layer(s, [&] { impl_->ops[i]->backward(); });
        ++impl_->profile[i].backwards;
    }
}

void CudaPlan::read_input_grad(float* host, std::size_t i) const {
    const int id = impl_->schedule.input_grads.at(i);
    if (id == kNoBuffer) throw runtime_error("read_input_grad() on a plan built without input_grads");
    impl_->to_host(host, impl_->buffer(id), impl_->floats(id));
}

std::vector<std::pair<std::string, std::string>> CudaPlan::kernels() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t i = 0; i < impl_->ops.size(); ++i)
        if (impl_->ops[i]) out.emplace_back(impl_->schedule.steps[i].node, impl_->ops[i]->impl_info());
    return out;
}

MemoryBreakdown CudaPlan::memory() const { return impl_->layout.bytes; }

const PlanProfile& CudaPlan::profile() const { return impl_->profile; }

}  // namespace lf
