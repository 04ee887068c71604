#include "backend/cuda/cuda_plan.h"

#include <algorithm>
#include <array>
#include <optional>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_device_model.h"
#include "backend/cuda/cuda_ops.h"
#include "backend/cuda/device_buffer.h"
#include "backend/cuda/input_staging.h"
#include "backend/cuda/oom_message.h"
#include "backend/cuda/pass_timer.h"
#include "backend/cuda/step_graphs.h"
#include "layerforge/core/bfloat16.h"
#include "layerforge/core/float16.h"
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

// What a step's op computes in: its output's type (Note [Mixed precision on the CUDA backend]).
DType compute_type(const Schedule& s, const ScheduledStep& st) {
    return st.out == kNoBuffer ? DType::Float32 : s.buffers[std::size_t(st.out)].dtype;
}

// Float slots holding n elements of `type`.
std::size_t storage_floats(std::size_t n, DType type) { return (n * dtype_size(type) + sizeof(float) - 1) / sizeof(float); }

ScheduleOptions schedule_options(const PlanOptions& o) {
    // No rewrites: the CUDA ops do not fold BatchNormalization or run ReLUs in place yet.
    return {.batch = o.batch, .first_row = o.first_row, .training = o.mode == PlanMode::Train, .seed = o.seed,
            .input_grads = o.input_grads, .fuse = false, .precision = o.precision};
}

// Where each buffer and workspace lies in the plan's block, in floats, and the totals. The
// scratch (cuDNN's convolution workspaces) is one region at the end, as large as the largest
// step asks: the ops run one after another on one stream, and none keeps it between calls.
// Each input has two staging buffers (InputStaging); the step counter dropout reads is a
// 64-bit integer of its own. A step whose input is stored in another type than it computes in
// (the float32 output layer of a mixed plan) reads a copy in its own type, and writes that
// input's gradient into a copy rounded back after its backward: its islands.
struct Island {
    std::size_t port = 0;
    std::size_t copy_at = 0, grad_at = 0;  // grad_at 0: the input needs no gradient
    std::size_t bytes = 0;                 // the copies'
};

struct Layout {
    std::vector<std::size_t> buffer_at, workspace_at;
    std::vector<std::vector<Island>> islands;  // per step
    std::vector<std::array<std::size_t, 2>> staging_at;  // per input
    std::size_t counter_at = 0;
    std::size_t scratch_at = 0, scratch_bytes = 0;
    std::size_t floats = 0;
    MemoryBreakdown bytes;
};

Layout lay_out(const Schedule& s) {
    Layout l;
    for (const PlannedBuffer& b : s.buffers) {
        l.buffer_at.push_back(l.floats);
        l.floats += aligned(storage_floats(b.floats, b.dtype));
    }
    l.bytes.activations = s.bytes(BufferKind::Activation);
    l.bytes.gradients = s.bytes(BufferKind::Gradient);
    for (int id : s.inputs) {
        const std::size_t n = s.buffers[std::size_t(id)].floats;
        l.staging_at.push_back({l.floats, l.floats + aligned(n)});
        l.floats += 2 * aligned(n);
        l.bytes.activations += 2 * n * sizeof(float);
    }
    l.counter_at = l.floats;
    l.floats += aligned(sizeof(std::uint64_t) / sizeof(float));
    l.bytes.workspaces += sizeof(std::uint64_t);
    for (const ScheduledStep& st : s.steps) {
        const DType type = compute_type(s, st);
        const CudaOpNeeds n = cuda_op_needs(st, s.options.batch, s.options.training, type);
        l.workspace_at.push_back(l.floats);
        l.floats += aligned(n.workspace_floats);
        l.bytes.workspaces += n.workspace_floats * sizeof(float);
        l.scratch_bytes = std::max(l.scratch_bytes, n.scratch_bytes);
        std::vector<Island> islands;
        for (std::size_t port = 0; st.runs && port < st.in.size(); ++port) {
            const PlannedBuffer& in = s.buffers[std::size_t(st.in[port])];
            if (in.dtype == type) continue;
            const std::size_t copy = aligned(storage_floats(in.floats, type));
            Island island{.port = port, .copy_at = l.floats};
            l.floats += copy;
            if (port < st.in_grad.size() && st.in_grad[port] != kNoBuffer) {
                island.grad_at = l.floats;
                l.floats += copy;
            }
            island.bytes = (island.grad_at ? 2 : 1) * in.floats * dtype_size(type);
            l.bytes.activations += island.bytes;
            islands.push_back(island);
        }
        l.islands.push_back(std::move(islands));
    }
    l.scratch_at = l.floats;
    l.floats += aligned((l.scratch_bytes + sizeof(float) - 1) / sizeof(float));
    l.bytes.workspaces += l.scratch_bytes;
    return l;
}

// The backward pass's variants (Note [Replaying a plan's passes as CUDA graphs]): whether the
// softmax backward is skipped, and which update kernel follows (none: -1).
int backward_variant(bool logits, int rule) { return (logits ? 1 : 0) | ((rule + 1) << 1); }

constexpr const char* kTimedEager = "timed for the Profile panel (one pass in 100, Note [Kernel times on the GPU])";

constexpr const char* kParallelEager =
    "data-parallel: the gradients' sums over the GPUs start from the host between its steps and the update waits "
    "for them on the host";

}  // namespace

struct CudaPlan::Impl {
    const CudaContext& ctx;
    CudaDeviceModel* owner;
    Schedule schedule;
    Layout layout;
    DeviceBuffer block;
    std::vector<std::unique_ptr<CudaOp>> ops;  // per step; null where nothing runs
    CudaOp* output_op = nullptr;
    PlanProfile profile;
    std::vector<InputStaging> inputs;            // per schedule input
    std::unique_ptr<PinnedUpload> output_grad;   // training plans
    bool logits_grad = false;                    // the last set_output_grad's kind
    StepGraphs graphs;
    PassTimer timer;
    std::array<std::int64_t, 2> runs{};          // passes so far, by GraphPass

    Impl(const Model& model, const PlanOptions& o, const CudaContext& c, DeviceArena& arena, CudaWeights w,
         CudaDeviceModel* dm)
        : ctx(c), owner(dm), schedule(make_schedule(model, schedule_options(o), cuda_backward_reads_output)),
          layout(lay_out(schedule)), graphs(c, graphs_off_reason(o.cuda_graphs)), timer(c, schedule.steps.size()) {
        if (std::string why = cuda_precision_unsupported(o.precision, ctx.compute_capability()); !why.empty())
            throw input_error(std::string(to_string(o.precision)) + " on " + o.device + ": " + why);
        for (const ScheduledStep& st : schedule.steps)
            if (std::string why = cuda_op_unsupported(st); !why.empty()) throw input_error(why + " (on " + o.device + ")");
        allocate(model, o, arena);
        for (std::size_t i = 0; i < schedule.steps.size(); ++i) ops.push_back(build(model, i, w));
        output_op = ops[schedule.output_step].get();
        profile = CudaPlan::describe(model, o);  // each step's bytes; the passes add their counts
        inputs.reserve(schedule.inputs.size());
        for (std::size_t i = 0; i < schedule.inputs.size(); ++i) {
            const int id = schedule.inputs[i];
            inputs.emplace_back(ctx, std::array<float*, 2>{at(layout.staging_at[i][0]), at(layout.staging_at[i][1])},
                                buffer(id), floats(id), cuda_dtype(type(id)));
        }
        if (schedule.options.training)
            output_grad = std::make_unique<PinnedUpload>(ctx, output_floats() * sizeof(float), "the loss's gradients");
    }

    float* at(std::size_t offset) const { return block.floats() + offset; }
    std::uint64_t* step_counter() const { return reinterpret_cast<std::uint64_t*>(at(layout.counter_at)); }

    // The calls of each pass, as StepGraphs captures them: queued only, nothing read on the host.
    // `timed`: with PassTimer's events around each step.
    void queue_forward(bool timed) {
        if (timed) timer.begin(GraphPass::Forward);
        for (std::size_t i = 0; i < ops.size(); ++i)
            if (ops[i]) for_layer(schedule.steps[i], [&] {
                cross_islands(i, false);
                ops[i]->forward();
                if (timed) timer.after(GraphPass::Forward, i);
            });
        if (schedule.options.training)  // the next step's dropout masks
            ctx.run([&](lf_cuda_error* e) { return ctx.api().count_step(ctx.get(), step_counter(), e); },
                    "counting the step");
    }
    void queue_backward(CudaPlan& plan, const lf_cuda_update* update, bool timed) {
        if (timed) timer.begin(GraphPass::Backward);
        for (std::size_t i = ops.size(); i-- > 0;) {
            const ScheduledStep& s = schedule.steps[i];
            if (s.grad != kNoBuffer) {
                if (!s.grad_slots.empty()) sum_slots(s);
                if (ops[i]) for_layer(s, [&] {
                    ops[i]->backward();
                    cross_islands(i, true);
                    if (timed) timer.after(GraphPass::Backward, i);
                });
            }
            plan.step_done(i);  // queued after this step's kernels: a data-parallel bucket's sum may follow them
        }
        if (update) owner->queue_update(*update);
    }
    void count_backward() {
        for (std::size_t i = 0; i < ops.size(); ++i)
            if (schedule.steps[i].grad != kNoBuffer) ++profile[i].backwards;
    }
    // Whether this run of `pass` is timed; the last timed one's times are collected first.
    bool next_timed(GraphPass pass) {
        const bool timed = PassTimer::due(++runs[std::size_t(pass)]);
        if (timed) timer.collect(profile);
        return timed;
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
    DType type(int id) const { return schedule.buffers[std::size_t(id)].dtype; }

    // Forward: step i's inputs converted into its islands; backward: the islands' gradients
    // converted back into the inputs' gradient buffers.
    void cross_islands(std::size_t i, bool backward) const {
        const ScheduledStep& st = schedule.steps[i];
        const int own = cuda_dtype(compute_type(schedule, st));
        for (const Island& is : layout.islands[i]) {
            const int in = st.in[is.port];
            if (backward && !is.grad_at) continue;
            const int grad = backward ? st.in_grad[is.port] : kNoBuffer;
            ctx.run([&](lf_cuda_error* e) {
                const int theirs = cuda_dtype(type(in));
                return backward ? ctx.api().cast(ctx.get(), own, at(is.grad_at), theirs, buffer(grad), floats(in), e)
                                : ctx.api().cast(ctx.get(), theirs, buffer(in), own, at(is.copy_at), floats(in), e);
            }, backward ? "rounding an input's gradient" : "widening an input");
        }
    }

    std::unique_ptr<CudaOp> build(const Model& model, std::size_t i, CudaWeights w) {
        const ScheduledStep& s = schedule.steps[i];
        if (!s.runs) return nullptr;
        const bool training = schedule.options.training && !(s.frozen && s.grad == kNoBuffer);
        CudaOpSetup setup{.ctx = ctx, .node = *s.info, .batch = schedule.options.batch, .training = training,
                          .frozen = s.frozen};
        setup.dtype = cuda_dtype(compute_type(schedule, s));
        setup.seed = s.seed;
        setup.first_row = schedule.options.first_row;
        setup.step = step_counter();
        setup.scratch = block.floats() + layout.scratch_at;
        setup.scratch_bytes = layout.scratch_bytes;
        for (int id : s.in) setup.in.push_back(buffer(id));
        for (int id : s.in_grad) setup.in_grad.push_back(buffer(id));
        for (const Island& is : layout.islands[i]) {
            setup.in[is.port] = at(is.copy_at);
            if (is.grad_at) setup.in_grad[is.port] = at(is.grad_at);
        }
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
        const int dtype = cuda_dtype(type(s.grad));
        bool started = false;
        for (int slot : s.grad_slots) started = started || slot == s.grad;
        for (int slot : s.grad_slots) {
            if (slot == s.grad) continue;
            const float* src = buffer(slot);
            const std::size_t n = floats(s.grad);
            if (!started) {
                ctx.run([&](lf_cuda_error* e) {
                    return ctx.api().copy_on_device(ctx.get(), dst, src, n * dtype_size(type(s.grad)), e);
                }, "summing gradients");
                started = true;
            } else {
                ctx.run([&](lf_cuda_error* e) { return ctx.api().add(ctx.get(), dtype, dst, src, n, e); },
                        "summing gradients");
            }
        }
    }

    void to_host(float* host, const float* src, std::size_t n) const {
        ctx.run([&](lf_cuda_error* e) { return ctx.api().copy_to_host(ctx.get(), host, src, n * sizeof(float), e); },
                "copying from the device");
    }
    std::size_t output_floats() const { return std::size_t(schedule.options.batch * schedule.output_width); }
};

CudaPlan::CudaPlan(const Model& model, const PlanOptions& options, const CudaContext& ctx, DeviceArena& arena,
                   CudaWeights weights, CudaDeviceModel* owner)
    : Plan(options), impl_(std::make_unique<Impl>(model, options, ctx, arena, weights, owner)) {}

CudaPlan::~CudaPlan() = default;

MemoryBreakdown CudaPlan::estimate(const Model& model, const PlanOptions& options) {
    return lay_out(make_schedule(model, schedule_options(options), cuda_backward_reads_output)).bytes;
}

PlanProfile CudaPlan::describe(const Model& model, const PlanOptions& options) {
    const Schedule s = make_schedule(model, schedule_options(options), cuda_backward_reads_output);
    const Layout layout = lay_out(s);
    std::vector<bool> charged(s.buffers.size(), false);
    auto charge = [&](int id) -> std::size_t {
        if (id == kNoBuffer || charged[std::size_t(id)]) return 0;
        charged[std::size_t(id)] = true;
        return s.buffers[std::size_t(id)].bytes();
    };
    PlanProfile out;
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
        const ScheduledStep& st = s.steps[i];
        LayerProfile p;
        p.node = st.node;
        p.compute = st.runs ? compute_type(s, st) : DType::Float32;
        p.bytes = charge(st.out) + charge(st.grad) +
                  cuda_op_needs(st, s.options.batch, s.options.training, compute_type(s, st)).workspace_floats * sizeof(float);
        for (const Island& is : layout.islands[i]) p.bytes += is.bytes;
        for (int slot : st.grad_slots) p.bytes += charge(slot);
        out.push_back(p);
    }
    // An input's two staging buffers go to its Input step, the step counter to the first step.
    for (int id : s.inputs)
        for (std::size_t i = 0; i < s.steps.size(); ++i)
            if (s.steps[i].out == id) {  // the Input step, not a view (Flatten) that aliases its buffer
                out[i].bytes += 2 * s.buffers[std::size_t(id)].floats * sizeof(float);
                break;
            }
    if (!out.empty()) out[0].bytes += sizeof(std::uint64_t);
    // The shared scratch goes to the step that asks most (the first of equals).
    const std::size_t scratch = layout.scratch_bytes;
    for (std::size_t i = 0; i < s.steps.size() && scratch; ++i)
        if (cuda_op_needs(s.steps[i], s.options.batch, s.options.training, compute_type(s, s.steps[i])).scratch_bytes ==
            scratch) {
            out[i].bytes += scratch;
            break;
        }
    return out;
}

std::size_t CudaPlan::input_count() const { return impl_->schedule.inputs.size(); }

std::int64_t CudaPlan::input_width(std::size_t i) const {
    return std::int64_t(impl_->floats(impl_->schedule.inputs.at(i))) / impl_->schedule.options.batch;
}

void CudaPlan::set_input(const float* host, std::size_t i) { impl_->inputs.at(i).upload(host); }

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

// The counter the training forward passes advance; dropout reads it on the device.
void CudaPlan::seek_rng(std::uint64_t steps) {
    impl_->ctx.run([&](lf_cuda_error* e) {
        return impl_->ctx.api().copy_to_device(impl_->ctx.get(), impl_->step_counter(), &steps, sizeof steps, e);
    }, "setting the plan's random streams");
}

void CudaPlan::forward() {
    Impl& m = *impl_;
    const bool timed = m.next_timed(GraphPass::Forward);
    m.graphs.run(GraphPass::Forward, 0, [&] { m.queue_forward(timed); }, timed ? kTimedEager : nullptr);
    for (std::size_t i = 0; i < m.ops.size(); ++i)
        if (m.ops[i]) ++m.profile[i].forwards;
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
    impl_->logits_grad = logits;
    impl_->output_grad->to_device(dst, host, impl_->output_floats() * sizeof(float));
}

void CudaPlan::backward() {
    if (options().mode != PlanMode::Train) throw runtime_error("backward() on an inference plan");
    Impl& m = *impl_;
    const bool timed = m.next_timed(GraphPass::Backward);
    m.graphs.run(GraphPass::Backward, backward_variant(m.logits_grad, -1), [&] { m.queue_backward(*this, nullptr, timed); },
                 has_backward_listener() ? kParallelEager : timed ? kTimedEager : nullptr);
    m.count_backward();
}

// The update in the backward pass's graph where the rule has a device form and nothing waits
// between them on the host; otherwise the two one after the other.
void CudaPlan::backward_and_update(DeviceModel& device, WeightUpdate& rule, double lr) {
    Impl& m = *impl_;
    if (options().mode != PlanMode::Train) throw runtime_error("backward() on an inference plan");
    if (&device != m.owner || has_backward_listener()) return Plan::backward_and_update(device, rule, lr);
    const std::optional<lf_cuda_update> u = m.owner->take_device_step(rule, lr);
    if (!u) return Plan::backward_and_update(device, rule, lr);  // nothing was counted
    const bool timed = m.next_timed(GraphPass::Backward);
    m.graphs.run(GraphPass::Backward, backward_variant(m.logits_grad, u->rule), [&] { m.queue_backward(*this, &*u, timed); },
                 timed ? kTimedEager : nullptr);
    m.count_backward();
}

void CudaPlan::read_input_grad(float* host, std::size_t i) const {
    const int id = impl_->schedule.input_grads.at(i);
    if (id == kNoBuffer) throw runtime_error("read_input_grad() on a plan built without input_grads");
    const DType t = impl_->type(id);
    if (t == DType::Float32) return impl_->to_host(host, impl_->buffer(id), impl_->floats(id));
    std::vector<std::uint16_t> half(impl_->floats(id));  // rare (saliency maps): widened on the host
    impl_->ctx.run([&](lf_cuda_error* e) {
        return impl_->ctx.api().copy_to_host(impl_->ctx.get(), half.data(), impl_->buffer(id), half.size() * 2, e);
    }, "copying from the device");
    for (std::size_t k = 0; k < half.size(); ++k)
        host[k] = t == DType::BFloat16 ? from_bfloat16(half[k]) : from_float16(half[k]);
}

std::vector<std::pair<std::string, std::string>> CudaPlan::kernels() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t i = 0; i < impl_->ops.size(); ++i)
        if (impl_->ops[i]) out.emplace_back(impl_->schedule.steps[i].node, impl_->ops[i]->impl_info());
    return out;
}

MemoryBreakdown CudaPlan::memory() const { return impl_->layout.bytes; }

const PlanProfile& CudaPlan::profile() const {
    impl_->timer.collect(impl_->profile);  // waits for the last timed pass, if its times are not in yet
    return impl_->profile;
}

const std::string& CudaPlan::execution() const { return impl_->graphs.describe(); }

}  // namespace lf
