// The CPU execution plan. Buffers: every non-view node owns an output buffer; a view (Flatten,
// Reshape) aliases its input. Gradients: a node's consumers write d(loss)/d(output) straight
// into its gradient buffer when it has one consumer; with several, one consumer writes that
// buffer and the others slots of their own, added to it before the node's backward.
// Rewrites (PlanOptions::fuse): a plain ReLU that is a BatchNormalization's only consumer is
// folded into it (oneDNN's fuse_norm_relu) and becomes an alias of its output; another ReLU
// overwrites its input's buffer when nobody else reads that buffer (see relu_in_place_ok); a
// convolution's relu activation moves past the MaxPool2D that is its only consumer
// (OpSetup::relu_after). In inference plans a BatchNormalization that is the only consumer of a
// Conv2D or DepthwiseConv2D without activation is folded into its kernel and bias, together
// with the ReLU it absorbed (OpSetup::folded_norm), and becomes an alias of its output.
#include <algorithm>
#include <map>
#include <set>

#include "backend/cpu/ops.h"
#include "core/slices.h"
#include "layerforge/core/error.h"
#include "layerforge/graph/memory.h"
#include "layerforge/graph/plan.h"
#include "layerforge/train/loss.h"

namespace lf {

namespace {

struct Step {
    std::string node;
    std::unique_ptr<CpuOp> op;               // null for Input and views
    float* grad = nullptr;                    // d(loss)/d(output), summed
    std::vector<const float*> grad_slots;     // fan-out > 1: one per consumer, one of them may be `grad`
    std::size_t count = 0;                    // batch x output elements
};

}  // namespace

struct Plan::Impl {
    Model& model;
    PlanOptions opt;
    bool count_only;                          // an estimate: sizes are counted, nothing is built
    CpuContext ctx;
    std::vector<std::vector<float>> buffers;  // owned once, never resized after construction
    std::vector<Step> steps;                  // topological order
    std::vector<float*> inputs, input_grads;
    const float* output = nullptr;
    float* output_grad = nullptr;
    std::int64_t output_width = 0;
    CpuOp* output_op = nullptr;
    MemoryBreakdown bytes;  // activations, gradients and workspaces of this plan
    MemoryLease lease;

    // A zeroed buffer of n floats counted under `kind`; when only counting, one float stands in.
    float* new_buffer(std::size_t n, std::size_t MemoryBreakdown::*kind) {
        bytes.*kind += n * sizeof(float);
        buffers.emplace_back(count_only ? 1 : n, 0.f);
        return buffers.back().data();
    }
    float* new_activation(std::size_t n) { return new_buffer(n, &MemoryBreakdown::activations); }
    float* new_gradient(std::size_t n) { return new_buffer(n, &MemoryBreakdown::gradients); }

    Impl(Model& m, const PlanOptions& o, bool count) : model(m), opt(o), count_only(count) {
        const Analysis& a = model.analysis();
        const Graph& g = model.graph();
        bool training = opt.mode == PlanMode::Train;
        std::map<std::string, float*> out_of, grad_of;
        std::map<std::string, bool> needs_grad;
        std::map<std::string, int> fanout;
        std::map<std::string, std::size_t> step_of;
        std::map<std::string, std::string> consumer;  // of a node with one consumer
        for (const Edge& e : g.edges) ++fanout[e.from.node], consumer[e.from.node] = e.to.node;
        buffers.reserve(4 * a.order.size() + 4);
        // The producer of a one-input node that feeds nothing else ("" when there is none).
        auto only_input = [&](const std::string& id) -> std::string {
            auto edges = g.inputs_of(id);
            return edges.size() == 1 && fanout[edges[0].from.node] == 1 ? edges[0].from.node : "";
        };
        auto type_of = [&](const std::string& id) -> const std::string& { return a.nodes.at(id).spec->type; };
        // A BatchNormalization whose only consumer is a plain ReLU that it absorbs.
        auto folds_relu = [&](const std::string& bn) {
            if (!opt.fuse || type_of(bn) != "BatchNormalization" || fanout[bn] != 1) return false;
            const std::string& next = consumer.at(bn);
            return is_plain_relu(a.nodes.at(next)) && !only_input(next).empty();
        };

        // A convolution with a relu activation whose only consumer is a MaxPool2D reading only it.
        auto moves_relu_out = [&](const std::string& id) {
            static const std::set<std::string> convs{"Conv2D", "DepthwiseConv2D", "Conv2DTranspose"};
            if (!opt.fuse || !convs.count(type_of(id)) || fanout[id] != 1) return false;
            const std::string& next = consumer.at(id);
            return param_str(a.nodes.at(id).params, "activation") == "relu" && type_of(next) == "MaxPool2D" &&
                   only_input(next) == id;
        };

        // Inference: a convolution that absorbs the BatchNormalization reading only it.
        auto folds_norm = [&](const std::string& id) {
            static const std::set<std::string> foldable{"Conv2D", "DepthwiseConv2D"};
            if (training || !opt.fuse || !foldable.count(type_of(id)) || fanout[id] != 1) return false;
            const std::string& next = consumer.at(id);
            return param_str(a.nodes.at(id).params, "activation") == "linear" &&
                   type_of(next) == "BatchNormalization" && only_input(next) == id;
        };
        auto folded_norm = [&](const std::string& conv) -> std::optional<OpSetup::FoldedNorm> {
            if (!folds_norm(conv)) return std::nullopt;
            const std::string& bn = consumer.at(conv);
            std::vector<const float*> w;  // gamma, beta, moving mean, moving variance
            for (const WeightRef* r : model.weights_of(bn)) w.push_back(model.weights().data() + r->offset);
            return OpSetup::FoldedNorm{w.at(0), w.at(1), w.at(2), w.at(3),
                                       float(param_float(a.nodes.at(bn).params, "epsilon")), folds_relu(bn)};
        };

        for (const std::string& id : a.order) {
            const NodeInfo& info = a.nodes.at(id);
            Step st;
            st.node = id;
            st.count = std::size_t(opt.batch * info.layer.output.elements());
            std::vector<Edge> in_edges = g.inputs_of(id);
            bool is_input = info.spec->type == "Input";
            bool ng = training && (!info.layer.weights.empty() || (is_input && opt.input_grads));
            for (const Edge& e : in_edges) ng = ng || needs_grad[e.from.node];
            needs_grad[id] = ng;

            OpSetup setup{.ctx = ctx, .node = info, .batch = opt.batch, .training = training,
                          .seed = opt.seed + step_of.size() * 7919, .fuse_relu = folds_relu(id),
                          .dry_run = count_only};
            const std::string producer = only_input(id);
            setup.relu_moved_out = moves_relu_out(id);
            setup.relu_after = !producer.empty() && moves_relu_out(producer);
            setup.folded_norm = folded_norm(id);
            // Runs as part of the node before it: a ReLU in a BatchNormalization, a
            // BatchNormalization in a convolution.
            const bool folded = !producer.empty() && (folds_relu(producer) || folds_norm(producer));
            const bool in_place = !folded && !producer.empty() && opt.fuse && relu_runs_in_place(info) &&
                                  relu_in_place_ok(steps[step_of.at(producer)], a.nodes.at(producer));
            for (const Edge& e : in_edges) {
                setup.in.push_back(out_of.at(e.from.node));
                float* slot = nullptr;
                if (needs_grad[e.from.node]) {
                    Step& producer = steps[step_of.at(e.from.node)];
                    float* own = grad_of.at(e.from.node);
                    if (fanout[e.from.node] == 1) {
                        slot = own;
                    } else {
                        // One consumer writes the producer's gradient itself, the others slots of their
                        // own that are added to it. Not a view: it has no backward of its own to write
                        // the gradient, and its branch may end without reaching the loss.
                        const auto& slots = producer.grad_slots;
                        const bool taken = std::find(slots.begin(), slots.end(), own) != slots.end();
                        slot = own && !taken && !info.spec->view ? own : new_gradient(producer.count);
                        producer.grad_slots.push_back(slot);
                    }
                }
                setup.in_grad.push_back(slot);
            }
            if (info.spec->view || folded) {
                out_of[id] = const_cast<float*>(setup.in[0]);
                grad_of[id] = setup.in_grad[0];
            } else {
                out_of[id] = in_place ? const_cast<float*>(setup.in[0]) : new_activation(st.count);
                if (is_input) inputs.push_back(out_of[id]);
                grad_of[id] = ng ? new_gradient(st.count) : nullptr;
                if (is_input) input_grads.push_back(grad_of[id]);
            }
            st.grad = grad_of[id];
            if (info.spec->make_cpu && !folded) {
                setup.out = out_of[id];
                setup.out_grad = st.grad;
                for (const WeightRef* w : model.weights_of(id)) {
                    setup.w.push_back(model.weights().data() + w->offset);
                    setup.w_grad.push_back(model.grads().data() + w->offset);
                }
                try {
                    st.op = info.spec->make_cpu(setup);
                } catch (const dnnl::error& e) {
                    throw runtime_error("node '" + id + "': oneDNN could not build a kernel: " + e.what());
                }
                if (st.op) bytes.workspaces += st.op->workspace_bytes();
            }
            step_of[id] = steps.size();
            steps.push_back(std::move(st));
        }
        const std::string& out_id = a.outputs.size() == 1 ? a.outputs[0] : a.order.back();
        Step& last = steps[step_of.at(out_id)];
        output = out_of.at(out_id);
        output_width = a.nodes.at(out_id).layer.output.elements();
        output_op = last.op.get();
        if (training && !last.grad) last.grad = grad_of[out_id] = new_gradient(last.count);
        output_grad = last.grad;
        bytes.workspaces += ctx.scratch.bytes();
        if (count_only) return;
        ctx.scratch.allocate();
        lease = MemoryLease(bytes);
    }

    // The producer's buffer may be overwritten by the ReLU after it (its only consumer) when the
    // producer owns it (not an Input or a view) and its backward does not read it.
    static bool relu_in_place_ok(const Step& producer, const NodeInfo& info) {
        return producer.op && !info.spec->view && !producer.op->backward_reads_output();
    }

    // The consumers' gradients, summed into the producer's own buffer: one consumer may have
    // written it already, the others' slots are added to it on the OpenMP pool.
    static void sum_slots(Step& st) {
        float* dst = st.grad;
        bool started = std::find(st.grad_slots.begin(), st.grad_slots.end(), dst) != st.grad_slots.end();
        for (const float* src : st.grad_slots) {
            if (src == dst) continue;
            if (!started) {
                std::copy(src, src + st.count, dst);
                started = true;
                continue;
            }
            core_detail::for_each_slice(st.count, [&](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i) dst[i] += src[i];
            });
        }
    }

    LossBatch batch_for(const std::int32_t* labels) const {
        LossBatch b{output, nullptr, labels, opt.batch, output_width};
        if (output_op)
            if (auto tail = output_op->softmax_tail()) b.logits = tail->logits;
        return b;
    }
};

Plan::Plan(Model& model, const PlanOptions& options) : impl_(std::make_unique<Impl>(model, options, false)) {}
Plan::~Plan() = default;

MemoryBreakdown Plan::memory() const { return impl_->bytes; }
std::size_t Plan::scratchpad_bytes() const { return impl_->ctx.scratch.bytes(); }

MemoryBreakdown Plan::estimate(const Model& model, const PlanOptions& options) {
    return Impl(const_cast<Model&>(model), options, true).bytes;  // counts only: nothing is written
}

std::int64_t Plan::batch() const { return impl_->opt.batch; }
std::size_t Plan::input_count() const { return impl_->inputs.size(); }
float* Plan::input(std::size_t i) { return impl_->inputs.at(i); }
const float* Plan::output() const { return impl_->output; }
std::int64_t Plan::output_width() const { return impl_->output_width; }
float* Plan::output_grad() { return impl_->output_grad; }
const float* Plan::input_grad(std::size_t i) const { return impl_->input_grads.at(i); }

void Plan::forward() {
    for (Step& st : impl_->steps)
        if (st.op) st.op->forward();
}

void Plan::backward() {
    if (impl_->opt.mode != PlanMode::Train) throw runtime_error("backward() on an inference plan");
    for (auto it = impl_->steps.rbegin(); it != impl_->steps.rend(); ++it) {
        if (!it->grad) continue;
        if (!it->grad_slots.empty()) impl_->sum_slots(*it);
        if (it->op) it->op->backward();
    }
}

double Plan::loss(const std::int32_t* labels, const Loss& loss) const {
    return loss.compute(impl_->batch_for(labels), nullptr);
}

double Plan::train_step(const std::int32_t* labels, const Loss& loss) {
    forward();
    LossBatch b = impl_->batch_for(labels);
    bool fused = b.logits && loss.fuses_softmax(b);
    float* grad = impl_->output_grad;
    if (impl_->output_op) {
        impl_->output_op->fuse_softmax_into_loss(fused);
        if (fused) grad = impl_->output_op->softmax_tail()->logits_grad;
    }
    double value = loss.compute(b, grad);
    backward();
    return value;
}

void Plan::seek_rng(std::uint64_t steps) {
    for (Step& st : impl_->steps)
        if (st.op) st.op->seek_rng(steps);
}

std::vector<std::pair<std::string, std::string>> Plan::kernels() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const Step& st : impl_->steps)
        if (st.op) out.emplace_back(st.node, st.op->impl_info());
    return out;
}

}  // namespace lf
