// The CPU execution plan: the schedule's buffers become host arrays, each running step one op.
// Every decision about buffers, aliases and rewrites comes from graph/schedule.h; this file
// only binds memory and builds ops.
#include "backend/cpu/cpu_plan.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <numeric>

#include "backend/cpu/bf16.h"
#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/layout_copy.h"
#include "backend/host_update.h"
#include "core/slices.h"
#include "layerforge/backend/weight_update.h"
#include "layerforge/core/error.h"

namespace lf {

namespace {

struct Step {
    std::unique_ptr<CpuOp> op;             // null: nothing runs (Input, a view, a folded layer)
    float* grad = nullptr;                  // d(loss)/d(output), summed
    DType grad_type = DType::Float32;
    DType compute = DType::Float32;         // what its op computes in
    std::vector<const float*> grad_slots;  // fan-out > 1: one per consumer, one of them may be `grad`
    std::size_t count = 0;
};

using Clock = std::chrono::steady_clock;

std::int64_t nanoseconds_since(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t).count();
}

// Training work per step (forward, and backward at about twice its cost) below which one
// thread beats the pool: the MLP template at batch 128 (60 MFLOP) trains ~4x faster on one
// thread than on two, the CNN (4 GFLOP at batch 50) ~1.8x faster on two (bench_step --threads).
constexpr double kSharedWork = 200e6;

int choose_threads(const Model& model, const PlanOptions& o) {
    if (o.threads > 0) return o.threads;
    const double work = double(model.analysis().flops) * double(o.batch) * (o.mode == PlanMode::Train ? 3 : 1);
    return work < kSharedWork ? 1 : core_detail::pool_threads();
}

// The update's bands: 32 K floats of each of the weights, gradients and two state arrays (512
// KB) stay in a core's L2 for the copies made from them right after.
constexpr std::size_t kBandFloats = std::size_t(1) << 15;

// A piece of the optimizer update: weights [begin, end), then, for a band of one kernel, its
// copies' rows [row0, row1).
struct UpdateItem {
    std::size_t begin = 0, end = 0;
    const std::vector<LayoutCopy*>* copies = nullptr;
    std::int64_t row0 = 0, row1 = 0;
};

ScheduleOptions schedule_options(const PlanOptions& o) {
    return {.batch = o.batch, .first_row = o.first_row, .training = o.mode == PlanMode::Train, .seed = o.seed,
            .input_grads = o.input_grads, .fuse = o.fuse, .precision = o.precision};
}

}  // namespace

struct CpuPlan::Impl {
    bool count_only;  // an estimate: sizes are counted, nothing is allocated or run
    int threads;      // the kernels are built for this many and run on as many
    Schedule schedule;
    CpuContext ctx;
    std::vector<std::vector<float>> buffers;  // the schedule's, owned once, never resized
    std::vector<Step> steps;                  // the schedule's order
    MemoryBreakdown bytes;
    CpuOp* output_op = nullptr;
    PlanProfile profile;                      // one per step, sized here: the passes only add
    MemoryLease lease;
    WeightMemory weights;
    // The update that makes the weight copies (update_and_copy), laid out for this many
    // trainable weights: the kernels copied in bands, the rest of the weights in plain pieces.
    std::size_t update_items_for = SIZE_MAX;
    std::vector<UpdateItem> update_items;
    std::vector<std::vector<LayoutCopy*>> banded;  // the copies of one kernel per entry
    std::vector<LayoutCopy*> whole;                // copied whole, after the update

    Impl(const Model& model, const PlanOptions& o, WeightMemory wm, bool count)
        : count_only(count), threads(choose_threads(model, o)),
          schedule(make_schedule(model, schedule_options(o), cpu_backward_reads_output)), weights(wm) {
        // Counting only (estimate, describe): the buffers at 2 bytes, as on a device that runs it.
        if (o.precision == Precision::MixedFloat16 && !count) throw input_error(cpu_float16_refusal());
        const core_detail::ThreadCount scope(threads);  // oneDNN sizes its kernels' work split now
        // Copies follow the model's weights_version() only where the plan reads the model's own
        // array (not a device's copy of it, as the tests' seam backend hands it).
        if (!count && wm.weights == model.weights().data()) ctx.model = &model;
        bytes.activations = schedule.bytes(BufferKind::Activation);
        bytes.gradients = schedule.bytes(BufferKind::Gradient);
        buffers.reserve(schedule.buffers.size());
        for (const PlannedBuffer& b : schedule.buffers)
            buffers.emplace_back(count_only ? 1 : (b.bytes() + sizeof(float) - 1) / sizeof(float), 0.f);
        steps.reserve(schedule.steps.size());
        for (const ScheduledStep& s : schedule.steps) steps.push_back(build(model, s, wm));
        output_op = steps[schedule.output_step].op.get();
        profile_steps();
        bytes.workspaces += ctx.scratch.bytes();
        if (count_only) return;
        ctx.scratch.allocate();
        lease = MemoryLease(bytes);
    }

    // Storage of the buffer's type (bf16 buffers are addressed as float storage too).
    float* buffer(int id) { return id == kNoBuffer ? nullptr : buffers[std::size_t(id)].data(); }
    DType type(int id) const { return id == kNoBuffer ? DType::Float32 : schedule.buffers[std::size_t(id)].dtype; }
    const float* buffer(int id) const { return id == kNoBuffer ? nullptr : buffers[std::size_t(id)].data(); }

    Step build(const Model& model, const ScheduledStep& s, WeightMemory wm) {
        Step st;
        st.count = s.count;
        st.grad = buffer(s.grad);
        st.grad_type = type(s.grad);
        for (int slot : s.grad_slots) st.grad_slots.push_back(buffer(slot));
        if (!s.runs) return st;
        const bool training = schedule.options.training && !(s.frozen && s.grad == kNoBuffer);
        OpSetup setup{.ctx = ctx, .node = *s.info, .batch = schedule.options.batch, .training = training,
                      .frozen = s.frozen, .seed = s.seed, .first_row = schedule.options.first_row, .fuse_relu = s.rewrites.fuse_relu, .relu_moved_out = s.rewrites.relu_moved_out,
                      .relu_after = s.rewrites.relu_after, .dry_run = count_only};
        BufferTypes types{.out = type(s.out), .out_grad = type(s.grad)};
        for (int id : s.in) setup.in.push_back(buffer(id)), types.in.push_back(type(id));
        for (int id : s.in_grad) setup.in_grad.push_back(buffer(id)), types.in_grad.push_back(type(id));
        setup.out = buffer(s.out);
        setup.out_grad = st.grad;
        for (const WeightRef* w : model.weights_of(s.node)) {
            setup.w.push_back(wm.weights + w->offset);
            setup.w_grad.push_back(wm.grads + w->offset);
        }
        if (!s.rewrites.folded_norm.empty()) {
            std::vector<const float*> w;  // gamma, beta, moving mean, moving variance
            for (const WeightRef* r : model.weights_of(s.rewrites.folded_norm)) w.push_back(wm.weights + r->offset);
            setup.folded_norm = OpSetup::FoldedNorm{
                w.at(0), w.at(1), w.at(2), w.at(3),
                float(param_float(model.info(s.rewrites.folded_norm).params, "epsilon")), s.rewrites.folded_norm_relu};
        }
        try {
            BuiltOp built = make_cpu_op(setup, types);
            st.op = std::move(built.op);
            st.compute = built.compute;
        } catch (const dnnl::error& e) {
            throw runtime_error("node '" + s.node + "': oneDNN could not build a kernel: " + e.what());
        }
        if (!st.op) return st;
        bytes.workspaces += st.op->workspace_bytes();
        // The planner decided in-place ReLUs from cpu_backward_reads_output; the op must agree.
        if (st.op->backward_reads_output() != cpu_backward_reads_output(s, schedule))
            throw runtime_error("node '" + s.node + "': the CPU op and the planner disagree on what its backward reads");
        return st;
    }

    // Each buffer is charged to the first step that names it as its output, gradient or slot.
    void profile_steps() {
        std::vector<bool> charged(buffers.size(), false);
        auto charge = [&](int id) -> std::size_t {
            if (id == kNoBuffer || charged[std::size_t(id)]) return 0;
            charged[std::size_t(id)] = true;
            return schedule.buffers[std::size_t(id)].bytes();
        };
        profile.resize(steps.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const ScheduledStep& s = schedule.steps[i];
            LayerProfile& p = profile[i];
            p.node = s.node;
            p.bytes = charge(s.out) + charge(s.grad);
            for (int slot : s.grad_slots) p.bytes += charge(slot);
            if (steps[i].op) p.bytes += steps[i].op->workspace_bytes();
            p.compute = steps[i].op ? steps[i].compute : type(s.out);
        }
    }

    // The consumers' gradients, summed into the producer's own buffer: one consumer may have
    // written it already, the others' slots are added to it on the OpenMP pool.
    static void sum_slots(Step& st) {
        float* dst = st.grad;
        bool started = std::find(st.grad_slots.begin(), st.grad_slots.end(), dst) != st.grad_slots.end();
        for (const float* src : st.grad_slots) {
            if (src == dst) continue;
            if (!started) {
                std::memcpy(dst, src, st.count * dtype_size(st.grad_type));
                started = true;
                continue;
            }
            if (st.grad_type == DType::BFloat16) {
                add_bf16(reinterpret_cast<bf16_t*>(dst), reinterpret_cast<const bf16_t*>(src), st.count);
                continue;
            }
            core_detail::for_each_slice(st.count, [&](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i) dst[i] += src[i];
            });
        }
    }

    std::size_t output_floats() const { return std::size_t(schedule.options.batch * schedule.output_width); }

    // Lays out the update of the first n weights: each kernel the plan copies in bands (a
    // pair-blocked bfloat16 copy) in bands of whole blocks for all of its copies, the rest in
    // pieces of kBandFloats; other copies are made whole after. Once per plan (and trainable size).
    void lay_out_update(std::size_t n) {
        update_items.clear();
        banded.clear();
        whole.clear();
        std::map<const float*, std::vector<LayoutCopy*>> by_kernel;
        for (LayoutCopy* c : ctx.weight_copies) {
            const std::size_t offset = std::size_t(c->source() - weights.weights);
            if (c->bands() && offset + c->source_floats() <= n) by_kernel[c->source()].push_back(c);
            else whole.push_back(c);
        }
        banded.reserve(by_kernel.size());  // the items point into it
        // Weights without copies in one piece per thread (long streams prefetch best), at least a band.
        auto plain = [&](std::size_t begin, std::size_t end) {
            const std::size_t per = (end - begin + std::size_t(threads) - 1) / std::size_t(threads);
            const std::size_t piece = std::max(kBandFloats, (per + 15) / 16 * 16);
            for (std::size_t b = begin; b < end; b += piece) update_items.push_back({b, std::min(end, b + piece)});
        };
        std::size_t done = 0;
        for (auto& [source, copies] : by_kernel) {
            const std::size_t begin = std::size_t(source - weights.weights);
            const PairBlockedCopy& first = *copies.front()->bands();
            std::int64_t band = 1;
            bool agree = begin >= done;
            for (const LayoutCopy* c : copies) {
                agree = agree && c->bands()->rows() == first.rows() && c->bands()->row_floats() == first.row_floats();
                band = std::lcm(band, c->bands()->band_rows());
            }
            if (!agree) {  // not one kernel read alike by all (never seen): copied whole
                whole.insert(whole.end(), copies.begin(), copies.end());
                continue;
            }
            plain(done, begin);
            const auto row = std::size_t(first.row_floats());
            const std::int64_t rows = first.rows();
            const std::int64_t step = std::max<std::int64_t>(band, std::int64_t(kBandFloats / row) / band * band);
            const std::vector<LayoutCopy*>& group = banded.emplace_back(std::move(copies));
            for (std::int64_t r = 0; r < rows; r += step) {
                const std::int64_t r1 = std::min(rows, r + step);
                update_items.push_back({begin + std::size_t(r) * row, begin + std::size_t(r1) * row, &group, r, r1});
            }
            done = begin + std::size_t(rows) * row;
        }
        plain(done, n);
        update_items_for = n;
    }

    // The optimizer's step over the trainable weights, each band of a copied kernel followed by
    // its copies while it is in cache, then the other copies: the passes then read copies made
    // of the current weights without making them (LayoutCopy::convert). False, with nothing
    // done, for a rule without a take_step form or a device whose weights are not this plan's.
    bool update_and_copy(DeviceModel& device, WeightUpdate& rule, double lr) {
        if (ctx.weight_copies.empty()) return false;
        Model& model = device.model();
        float* w = model.weights().data();  // opened for writing: copies made before are stale
        if (w != weights.weights) return false;
        const std::size_t n = model.trainable_size();
        const std::optional<UpdateStep> u = rule.take_step(n, lr);
        if (!u) return false;
        if (update_items_for != n) lay_out_update(n);
        const float* g = weights.grads;
        core_detail::for_each_item(update_items.size(), n, [&](std::size_t i) {
            const UpdateItem& item = update_items[i];
            run_update_step(*u, w, g, item.begin, item.end);
            if (item.copies)
                for (const LayoutCopy* c : *item.copies) c->convert_rows(item.row0, item.row1);
        });
        for (const LayoutCopy* c : whole) c->convert_now(ctx);
        for (LayoutCopy* c : ctx.weight_copies) c->made_at(model.weights_version());
        return true;
    }
};

CpuPlan::CpuPlan(const Model& model, const PlanOptions& options, WeightMemory memory)
    : CpuPlan(model, options, memory, false) {}

CpuPlan::CpuPlan(const Model& model, const PlanOptions& options, WeightMemory memory, bool count_only)
    : Plan(options), impl_(std::make_unique<Impl>(model, options, memory, count_only)) {}

CpuPlan::~CpuPlan() = default;

MemoryBreakdown CpuPlan::estimate(const Model& model, const PlanOptions& options) {
    // Counts only: the ops are built over placeholders and never run, nothing is written.
    float placeholder = 0;
    return CpuPlan(model, options, {&placeholder, &placeholder}, true).memory();
}

PlanProfile CpuPlan::describe(const Model& model, const PlanOptions& options) {
    float placeholder = 0;
    return CpuPlan(model, options, {&placeholder, &placeholder}, true).profile();
}

MemoryBreakdown CpuPlan::memory() const { return impl_->bytes; }
const PlanProfile& CpuPlan::profile() const { return impl_->profile; }
std::size_t CpuPlan::scratchpad_bytes() const { return impl_->ctx.scratch.bytes(); }

std::size_t CpuPlan::input_count() const { return impl_->schedule.inputs.size(); }

std::int64_t CpuPlan::input_width(std::size_t i) const {
    const Schedule& s = impl_->schedule;
    const int id = s.inputs.at(i);
    return std::int64_t(s.buffers[std::size_t(id)].floats) / s.options.batch;
}

void CpuPlan::set_input(const float* host, std::size_t i) {
    const int id = impl_->schedule.inputs.at(i);
    const std::size_t n = impl_->schedule.buffers[std::size_t(id)].floats;
    if (impl_->type(id) == DType::BFloat16) {
        // On the plan's threads: a one-thread plan's upload must not wake the pool each step
        // (the MLP's at batch 128, 100,352 floats, took as long as its bf16 step saved).
        const core_detail::ThreadCount scope(impl_->threads);
        return to_bf16(host, reinterpret_cast<bf16_t*>(impl_->buffer(id)), n);
    }
    std::memcpy(impl_->buffer(id), host, n * sizeof(float));
}

std::int64_t CpuPlan::output_width() const { return impl_->schedule.output_width; }

void CpuPlan::read_output(float* host) const {
    std::memcpy(host, impl_->buffer(impl_->schedule.output), impl_->output_floats() * sizeof(float));
}

bool CpuPlan::output_is_softmax() const { return impl_->output_op && impl_->output_op->softmax_tail(); }

void CpuPlan::read_logits(float* host) const {
    auto tail = impl_->output_op ? impl_->output_op->softmax_tail() : std::nullopt;
    if (!tail) throw runtime_error("read_logits() on a plan whose output is not a softmax");
    std::memcpy(host, tail->logits, impl_->output_floats() * sizeof(float));
}

int CpuPlan::threads() const { return impl_->threads; }

void CpuPlan::forward() {
    const core_detail::ThreadCount scope(impl_->threads);
    for (std::size_t i = 0; i < impl_->steps.size(); ++i) {
        Step& st = impl_->steps[i];
        if (!st.op) continue;
        const Clock::time_point start = Clock::now();
        st.op->forward();
        LayerProfile& p = impl_->profile[i];
        p.forward_ns += nanoseconds_since(start);
        ++p.forwards;
    }
}

void CpuPlan::set_output_grad(const float* host, OutputGrad of) {
    if (options().mode != PlanMode::Train) throw runtime_error("set_output_grad() on an inference plan");
    const bool logits = of == OutputGrad::Logits;
    float* dst = impl_->buffer(impl_->schedule.output_grad);
    if (logits) {
        auto tail = impl_->output_op ? impl_->output_op->softmax_tail() : std::nullopt;
        if (!tail) throw runtime_error("a gradient of logits for a plan whose output is not a softmax");
        dst = tail->logits_grad;
    }
    if (impl_->output_op) impl_->output_op->fuse_softmax_into_loss(logits);
    std::memcpy(dst, host, impl_->output_floats() * sizeof(float));
}

void CpuPlan::backward() {
    if (options().mode != PlanMode::Train) throw runtime_error("backward() on an inference plan");
    const core_detail::ThreadCount scope(impl_->threads);
    for (std::size_t i = impl_->steps.size(); i-- > 0;) {
        Step& st = impl_->steps[i];
        if (st.grad) {
            const Clock::time_point start = Clock::now();
            if (!st.grad_slots.empty()) impl_->sum_slots(st);
            if (st.op) st.op->backward();
            LayerProfile& p = impl_->profile[i];
            p.backward_ns += nanoseconds_since(start);
            ++p.backwards;
        }
        step_done(i);
    }
}

void CpuPlan::backward_and_update(DeviceModel& device, WeightUpdate& rule, double lr) {
    const core_detail::ThreadCount scope(impl_->threads);
    backward();
    if (!impl_->update_and_copy(device, rule, lr)) device.update(rule, lr);
}

void CpuPlan::read_input_grad(float* host, std::size_t i) const {
    const Schedule& s = impl_->schedule;
    const int id = s.input_grads.at(i);
    if (id == kNoBuffer) throw runtime_error("read_input_grad() on a plan built without input_grads");
    const std::size_t n = s.buffers[std::size_t(id)].floats;
    if (impl_->type(id) == DType::BFloat16) {
        const core_detail::ThreadCount scope(impl_->threads);
        return from_bf16(reinterpret_cast<const bf16_t*>(impl_->buffers[std::size_t(id)].data()), host, n);
    }
    std::memcpy(host, impl_->buffer(id), n * sizeof(float));
}

void CpuPlan::seek_rng(std::uint64_t steps) {
    for (Step& st : impl_->steps)
        if (st.op) st.op->seek_rng(steps);
}

std::vector<std::pair<std::string, std::string>> CpuPlan::kernels() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t i = 0; i < impl_->steps.size(); ++i)
        if (impl_->steps[i].op) out.emplace_back(impl_->schedule.steps[i].node, impl_->steps[i].op->impl_info());
    return out;
}

}  // namespace lf
