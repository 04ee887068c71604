// layerforge-cli info PROJECT: a model summary like Keras' model.summary().
#include "command.h"
#include "layerforge/core/error.h"
#include "layerforge/devices/devices.h"
#include "layerforge/graph/analysis.h"
#include "layerforge/train/memory_budget.h"
#include "layerforge/train/precision_policy.h"

namespace lf::cli {

namespace {

std::string grouped(std::int64_t n) {  // 79510 -> "79,510"
    std::string digits = std::to_string(n < 0 ? -n : n), s = n < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
        s += digits[i];
    }
    return s;
}

std::string pad(std::string s, std::size_t width) {
    if (s.size() < width) s.resize(width, ' ');
    return s + " ";
}

// Training memory at the project's batch size, before anything is allocated: weights and their
// gradients, the optimizer's state, the plan's activations and activation gradients, and the
// kernels' workspaces (oneDNN's scratchpad included).
Json memory_estimate(const Project& p, const MemoryBreakdown& m, const Reporter& out) {
    const std::int64_t batch = p.training.batch_size;
    const std::uint64_t machine = device_memory("cpu").total;
    out.line("Training memory at batch size " + std::to_string(batch) + " (estimate, CPU, " +
             to_string(p.training.precision) + "): " + (m.lower_bound ? "at least " : "") + megabytes(m.total()));
    out.line("  weights " + megabytes(m.weights) + ", gradients " + megabytes(m.gradients) + ", optimizer state " +
             megabytes(m.optimizer_state) + " (" + p.training.optimizer.type + "), " +
             (m.lower_bound ? "largest activation " : "activations ") + megabytes(m.activations) +
             ", kernel workspaces " + (m.lower_bound ? std::string("not counted") : megabytes(m.workspaces)));
    const bool fits = m.total() <= machine;
    if (!fits) out.line("  more than this machine's " + megabytes(machine) + ": training would be refused");
    return {{"batch_size", batch},          {"weights", m.weights},     {"gradients", m.gradients},
            {"optimizer_state", m.optimizer_state}, {"activations", m.activations}, {"workspaces", m.workspaces},
            {"total", m.total()}, {"lower_bound", m.lower_bound}, {"machine", machine}, {"fits", fits}};
}

// The policy, whether this machine runs it, and per layer the type its kernel computes in
// (Backend::describe: kernels chosen, nothing allocated). The list is printed for a policy other
// than float32 or one asked for with --precision; JSON always has it.
Json precision_report(const Project& p, const MemoryBreakdown& m, bool asked, const Reporter& out) {
    const Precision policy = p.training.precision;
    const std::string reason = precision_unsupported(policy, "cpu");
    out.line(std::string("Precision: ") + to_string(policy) + (asked ? " (--precision)" : " (training.precision)") +
             (reason.empty() ? "" : "; training refuses it here: " + reason));
    Json j = {{"policy", to_string(policy)}, {"supported", reason.empty()}, {"reason", reason}, {"layers", nullptr}};
    if (m.lower_bound) {  // choosing kernels for a plan this size would take long, for nothing
        out.line("  per-layer types not listed: the plan does not fit this machine");
        return j;
    }
    if (policy == Precision::MixedFloat16 && !reason.empty()) {  // the CPU has no float16 kernels to list
        out.line("  per-layer types not listed: no float16 kernels here");
        return j;
    }
    const PlanProfile steps = describe_training_plan(p);
    const bool list = asked || policy != Precision::Float32;
    if (list) out.line("  " + pad("Layer (type)", 32) + "Computes in");
    std::size_t half = 0;
    const DType half_type = compute_dtype(policy == Precision::Float32 ? Precision::MixedBFloat16 : policy);
    Json layers = Json::array();
    for (const LayerProfile& step : steps) {
        const Node* n = p.graph.find(step.node);
        if (list) out.line("  " + pad(n ? n->name + " (" + n->type + ")" : step.node, 32) + to_string(step.compute));
        layers.push_back({{"id", step.node}, {"compute", to_string(step.compute)}, {"bytes", step.bytes}});
        half += step.compute != DType::Float32;
    }
    out.line("  " + std::to_string(half) + " of " + std::to_string(steps.size()) + " layers compute in " +
             to_string(half_type) + ", the others in float32");
    j["layers"] = layers;
    return j;
}

Json shape_json(const Shape& s) {
    Json j = Json::array({nullptr});
    for (Dim d : s.dims) j.push_back(d);
    return j;
}

int run_info(const Args& args, const Reporter& out) {
    const std::string& path = args.require(0, "PROJECT (a .lfproj file)");
    Project p = load_project(path);
    if (auto b = args.integer("batch-size")) {
        if (*b < 1) throw input_error("option --batch-size must be at least 1");
        p.training.batch_size = *b;
    }
    const std::optional<Precision> asked = precision_option(args);
    if (asked) p.training.precision = *asked;
    Analysis a = analyze(p.graph);
    Json layers = Json::array();
    out.line("Model: \"" + p.name + "\"");
    std::string rule(96, '_');
    out.line(rule);
    out.line(pad("Layer (type)", 32) + pad("Output Shape", 22) + pad("Param #", 12) + "Connected to");
    out.line(std::string(96, '='));
    const auto& order = a.order.size() == p.graph.nodes.size() ? a.order : std::vector<std::string>{};
    std::vector<std::string> ids = order;
    if (ids.empty())
        for (const Node& n : p.graph.nodes) ids.push_back(n.id);
    for (const std::string& id : ids) {
        const Node& n = *p.graph.find(id);
        const NodeInfo& info = a.nodes[id];
        std::string inputs;
        Json in_json = Json::array();
        for (const Edge& e : p.graph.inputs_of(id)) {
            inputs += (inputs.empty() ? "" : ", ") + e.from.node;
            in_json.push_back(e.from.node);
        }
        out.line(pad(n.name + " (" + n.type + ")", 32) + pad(info.shaped ? info.layer.output.str() : "?", 22) +
                 pad(grouped(info.param_count), 12) + inputs);
        Json l = {{"id", id}, {"name", n.name}, {"type", n.type}, {"params", info.param_count},
                  {"flops", info.layer.flops}, {"inputs", in_json}};
        l["output_shape"] = info.shaped ? shape_json(info.layer.output) : Json(nullptr);
        layers.push_back(l);
    }
    out.line(std::string(96, '='));
    out.line("Total params: " + grouped(a.total_params));
    out.line("Trainable params: " + grouped(a.trainable_params));
    out.line("Non-trainable params: " + grouped(a.total_params - a.trainable_params));
    out.line("FLOPs per sample (forward): " + grouped(a.flops));
    Json diags = Json::array();
    for (const Diagnostic& d : a.diagnostics) {
        bool error = d.severity == Severity::Error;
        out.line(std::string(error ? "error" : "warning") + ": " + (d.node.empty() ? "graph" : "node '" + d.node + "'") +
                 ": " + (d.field.empty() ? "" : d.field + ": ") + d.message);
        diags.push_back({{"node", d.node}, {"field", d.field}, {"severity", error ? "error" : "warning"},
                         {"message", d.message}});
    }
    Json memory = nullptr, precision = nullptr;
    if (a.ok()) {
        const MemoryBreakdown m = estimate_training_memory(p);  // allocates no weights
        memory = memory_estimate(p, m, out);
        precision = precision_report(p, m, asked.has_value(), out);
    }
    out.object({{"event", "result"}, {"name", p.name}, {"layers", layers}, {"total_params", a.total_params},
                {"trainable_params", a.trainable_params}, {"flops", a.flops}, {"valid", a.ok()},
                {"diagnostics", diags}, {"memory", memory}, {"precision", precision}});
    return a.ok() ? 0 : 2;
}

}  // namespace

Command info_command() {
    return {{"info", "info PROJECT [--batch-size N] [--precision P] [--json]",
             "Prints the model summary: each layer with its output shape (channels last) and parameter count,\n"
             "the totals, the forward FLOPs and the training memory estimate at the batch size and precision\n"
             "(default: the project's), and under mixed_bfloat16 the type each layer computes in; exits 2\n"
             "and lists the problems when the graph is invalid.",
             {{"batch-size", "N", "estimate the memory for this batch size"},
              {"precision", "P", "float32, mixed_bfloat16 or mixed_float16: estimate and list the layers' types under this policy"},
              kJsonOption}},
            run_info};
}

}  // namespace lf::cli
