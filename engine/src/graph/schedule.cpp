// The backend-neutral plan of a Model: steps, buffers, aliases, fan-out gradient slots and rewrites.
#include "layerforge/graph/schedule.h"

#include <algorithm>
#include <map>

#include "layerforge/core/error.h"
#include "layerforge/layers/registry.h"

namespace lf {

namespace {

// An Activation-family layer as the function it computes: the name and the parameters that
// decide the ReLU rules.
struct ReluForm {
    bool relu_like = false;  // max(x, 0) with an optional slope below zero
    double slope = 0;
};

ReluForm relu_form(const NodeInfo& node) {
    const Params& p = node.params;
    switch (node.spec->op) {
    case LayerOp::Activation: return {param_str(p, "activation") == "relu", 0};
    case LayerOp::ReLU:
        return {param_float(p, "threshold") == 0 && param_float(p, "max_value") <= 0, param_float(p, "negative_slope")};
    case LayerOp::LeakyReLU: return {true, param_float(p, "alpha")};
    default: return {};
    }
}

}  // namespace

bool relu_runs_in_place(const NodeInfo& node) {
    ReluForm r = relu_form(node);
    return r.relu_like && r.slope >= 0;
}

bool is_plain_relu(const NodeInfo& node) {
    ReluForm r = relu_form(node);
    return r.relu_like && r.slope == 0;
}

std::size_t Schedule::bytes(BufferKind kind) const {
    std::size_t n = 0;
    for (const PlannedBuffer& b : buffers)
        if (b.kind == kind) n += b.bytes();
    return n;
}

const ScheduledStep& Schedule::step(const std::string& node) const {
    for (const ScheduledStep& s : steps)
        if (s.node == node) return s;
    throw runtime_error("node '" + node + "' is not in the plan");
}

namespace {

class Planner {
public:
    Planner(const Model& m, const ScheduleOptions& o, const BackwardReadsOutput& reads)
        : a_(m.analysis()), g_(m.graph()), reads_output_(reads) {
        s_.options = o;
        for (const Edge& e : g_.edges) ++fanout_[e.from.node], consumer_[e.from.node] = e.to.node;
    }

    Schedule run() {
        for (const std::string& id : a_.order) add_step(id);
        const std::string& out_id = a_.outputs.size() == 1 ? a_.outputs[0] : a_.order.back();
        s_.output_step = step_of_.at(out_id);
        ScheduledStep& last = s_.steps[s_.output_step];
        s_.output = last.out;
        s_.output_width = a_.nodes.at(out_id).layer.output.elements();
        if (s_.options.training && last.grad == kNoBuffer) last.grad = grad_of_[out_id] = new_buffer(last.count, BufferKind::Gradient);
        s_.output_grad = last.grad;
        if (s_.options.precision != Precision::Float32) {
            for (PlannedBuffer& b : s_.buffers) b.dtype = compute_dtype(s_.options.precision);
            for (int id : {s_.output, s_.output_grad})
                if (id != kNoBuffer) s_.buffers[std::size_t(id)].dtype = DType::Float32;
        }
        return std::move(s_);
    }

private:
    int new_buffer(std::size_t floats, BufferKind kind) {
        s_.buffers.push_back({floats, kind});
        return int(s_.buffers.size() - 1);
    }

    LayerOp op_of(const std::string& id) const { return a_.nodes.at(id).spec->op; }
    int fanout(const std::string& id) const {
        auto it = fanout_.find(id);
        return it == fanout_.end() ? 0 : it->second;
    }

    // The producer of a one-input node that feeds nothing else ("" when there is none).
    std::string only_input(const std::string& id) const {
        auto edges = g_.inputs_of(id);
        return edges.size() == 1 && fanout(edges[0].from.node) == 1 ? edges[0].from.node : "";
    }

    // A BatchNormalization whose only consumer is a plain ReLU that it absorbs.
    bool folds_relu(const std::string& bn) const {
        if (!s_.options.fuse || op_of(bn) != LayerOp::BatchNormalization || fanout(bn) != 1) return false;
        const std::string& next = consumer_.at(bn);
        return is_plain_relu(a_.nodes.at(next)) && !only_input(next).empty();
    }

    // A convolution with a relu activation whose only consumer is a MaxPool2D reading only it.
    bool moves_relu_out(const std::string& id) const {
        if (!s_.options.fuse || !is_convolution_op(op_of(id)) || fanout(id) != 1) return false;
        const std::string& next = consumer_.at(id);
        return param_str(a_.nodes.at(id).params, "activation") == "relu" && op_of(next) == LayerOp::MaxPool2D &&
               only_input(next) == id;
    }

    // Weights of this node that an optimizer updates (none when the node is frozen).
    bool has_trainable_weights(const std::string& id) const {
        const auto& w = a_.nodes.at(id).layer.weights;
        return std::any_of(w.begin(), w.end(), [](const WeightSpec& s) { return s.trainable; });
    }
    bool frozen(const std::string& id) const {
        const Node* n = g_.find(id);
        return n && !n->trainable && !a_.nodes.at(id).layer.weights.empty();
    }
    // Runs as at inference: an inference plan, or a frozen layer that needs no gradient.
    bool infers(const std::string& id) const {
        return !s_.options.training || (frozen(id) && !needs_grad_.at(id));
    }

    // Inference: a convolution that absorbs the BatchNormalization reading only it.
    bool folds_norm(const std::string& id) const {
        const LayerOp op = op_of(id);
        if (!infers(id) || !s_.options.fuse || (op != LayerOp::Conv2D && op != LayerOp::DepthwiseConv2D) ||
            fanout(id) != 1)
            return false;
        const std::string& next = consumer_.at(id);
        // A frozen BatchNormalization after a convolution that needs no gradient needs none either.
        return param_str(a_.nodes.at(id).params, "activation") == "linear" &&
               op_of(next) == LayerOp::BatchNormalization && only_input(next) == id &&
               (!s_.options.training || frozen(next));
    }

    // The producer's buffer may be overwritten by the ReLU after it (its only consumer) when the
    // producer owns it (it runs: not an Input or a view) and its backward does not read it.
    bool relu_in_place_ok(const ScheduledStep& producer) const {
        return producer.runs && !producer.info->spec->view && !reads_output_(producer, s_);
    }

    void add_step(const std::string& id) {
        const NodeInfo& info = a_.nodes.at(id);
        const bool training = s_.options.training;
        ScheduledStep st;
        st.node = id;
        st.info = &info;
        st.count = std::size_t(s_.options.batch * info.layer.output.elements());
        st.seed = s_.options.seed + s_.steps.size() * 7919;
        st.frozen = frozen(id);
        const std::vector<Edge> in_edges = g_.inputs_of(id);
        const bool is_input = info.spec->op == LayerOp::Input;
        bool ng = training && (has_trainable_weights(id) || (is_input && s_.options.input_grads));
        for (const Edge& e : in_edges) ng = ng || needs_grad_[e.from.node];
        needs_grad_[id] = ng;

        StepRewrites& r = st.rewrites;
        const std::string producer = only_input(id);
        r.fuse_relu = folds_relu(id);
        r.relu_moved_out = moves_relu_out(id);
        r.relu_after = !producer.empty() && moves_relu_out(producer);
        if (folds_norm(id)) {
            r.folded_norm = consumer_.at(id);
            r.folded_norm_relu = folds_relu(r.folded_norm);
        }
        st.folded = !producer.empty() && (folds_relu(producer) || folds_norm(producer));
        r.in_place = !st.folded && !producer.empty() && s_.options.fuse && relu_runs_in_place(info) &&
                     relu_in_place_ok(s_.steps[step_of_.at(producer)]);

        for (const Edge& e : in_edges) {
            st.in.push_back(out_of_.at(e.from.node));
            int slot = kNoBuffer;
            if (needs_grad_[e.from.node]) {
                ScheduledStep& from = s_.steps[step_of_.at(e.from.node)];
                const int own = grad_of_.at(e.from.node);
                if (fanout(e.from.node) == 1) {
                    slot = own;
                } else {
                    // One consumer writes the producer's gradient itself, the others slots of their
                    // own that are added to it. Not a view: it has no backward of its own to write
                    // the gradient, and its branch may end without reaching the loss.
                    const auto& slots = from.grad_slots;
                    const bool taken = std::find(slots.begin(), slots.end(), own) != slots.end();
                    slot = own != kNoBuffer && !taken && !info.spec->view ? own
                                                                         : new_buffer(from.count, BufferKind::Gradient);
                    from.grad_slots.push_back(slot);
                }
            }
            st.in_grad.push_back(slot);
        }
        if (info.spec->view || st.folded) {
            out_of_[id] = st.in.at(0);
            grad_of_[id] = st.in_grad.at(0);
        } else {
            out_of_[id] = r.in_place ? st.in.at(0) : new_buffer(st.count, BufferKind::Activation);
            grad_of_[id] = ng ? new_buffer(st.count, BufferKind::Gradient) : kNoBuffer;
            if (is_input) {
                s_.inputs.push_back(out_of_[id]);
                s_.input_grads.push_back(grad_of_[id]);
            }
        }
        st.out = out_of_[id];
        st.grad = grad_of_[id];
        st.runs = !is_input && !info.spec->view && !st.folded;
        step_of_[id] = s_.steps.size();
        s_.steps.push_back(std::move(st));
    }

    const Analysis& a_;
    const Graph& g_;
    const BackwardReadsOutput& reads_output_;
    Schedule s_;
    std::map<std::string, int> out_of_, grad_of_;
    std::map<std::string, bool> needs_grad_;
    std::map<std::string, int> fanout_;
    std::map<std::string, std::size_t> step_of_;
    std::map<std::string, std::string> consumer_;  // of a node with one consumer
};

}  // namespace

Schedule make_schedule(const Model& model, const ScheduleOptions& options, const BackwardReadsOutput& reads_output) {
    return Planner(model, options, reads_output).run();
}

}  // namespace lf
