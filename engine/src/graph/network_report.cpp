// The network report's costs and errors; the warnings' rules are in network_warnings.cpp.
#include "layerforge/graph/network_report.h"

#include <unordered_map>

#include "graph/network_warnings.h"
#include "layerforge/core/checked.h"
#include "layerforge/graph/model.h"

namespace lf {

namespace {

constexpr std::int64_t kFloatBytes = sizeof(float);

LayerCost cost_of(const Node& node, const NodeInfo& info, std::int64_t batch) {
    LayerCost c{.node = node.id, .type = node.type, .name = node.name.empty() ? node.id : node.name};
    c.shaped = info.shaped;
    if (!info.shaped) return c;
    c.output = info.layer.output;
    c.flops = info.layer.flops;
    for (const WeightSpec& w : info.layer.weights) {
        const std::int64_t n = w.shape.elements();  // shaped: analysis checked every size
        c.params = saturating_add(c.params, n);
        if (w.trainable) c.trainable_params = saturating_add(c.trainable_params, n);
    }
    const bool view = info.spec && info.spec->view;
    c.activation_bytes = view ? 0 : saturating_mul(saturating_mul(c.output.elements(), batch), kFloatBytes);
    c.weight_bytes = saturating_mul(c.params, kFloatBytes);
    // Nothing upstream of an Input needs d(loss)/d(input): it has no gradient buffer.
    const std::int64_t output_and_grad = saturating_mul(c.activation_bytes, node.type == "Input" ? 1 : 2);
    c.training_bytes = saturating_add(output_and_grad,
                                      saturating_add(c.weight_bytes, saturating_mul(c.trainable_params, kFloatBytes)));
    return c;
}

// What training requires beyond a valid graph (training_graph_problem), each extra output named
// on its node. A graph without an Input (or without any layer) has the analysis's error already.
void add_training_errors(const Analysis& a, std::vector<Diagnostic>& errors) {
    if (a.inputs.size() > 1) errors.push_back({"", "", Severity::Error, input_count_problem(a)});
    if (a.outputs.size() > 1) {
        for (const std::string& o : a.outputs)
            errors.push_back({o, "", Severity::Error,
                              "training needs exactly one output layer; this is one of " +
                                  std::to_string(a.outputs.size()) + ": connect it or delete it"});
    }
}

}  // namespace

NetworkReport analyze_network(const Graph& g, const Analysis& a, const ReportOptions& options) {
    NetworkReport r;
    r.batch = options.batch;
    for (const Diagnostic& d : a.diagnostics) (d.severity == Severity::Error ? r.errors : r.warnings).push_back(d);
    add_training_errors(a, r.errors);

    std::unordered_map<std::string, const Node*> by_id;
    by_id.reserve(g.nodes.size());
    for (const Node& n : g.nodes) by_id.emplace(n.id, &n);
    const bool complete = a.order.size() == g.nodes.size();
    r.layers.reserve(g.nodes.size());
    auto add = [&](const Node& n) {
        auto it = a.nodes.find(n.id);
        if (it == a.nodes.end()) return;
        LayerCost c = cost_of(n, it->second, options.batch);
        r.total_params = saturating_add(r.total_params, c.params);
        r.trainable_params = saturating_add(r.trainable_params, c.trainable_params);
        r.flops = saturating_add(r.flops, c.flops);
        r.activation_bytes = saturating_add(r.activation_bytes, c.activation_bytes);
        r.weight_bytes = saturating_add(r.weight_bytes, c.weight_bytes);
        r.training_bytes = saturating_add(r.training_bytes, c.training_bytes);
        r.layers.push_back(std::move(c));
    };
    if (complete)
        for (const std::string& id : a.order) add(*by_id.at(id));
    else
        for (const Node& n : g.nodes) add(n);

    report_detail::add_warnings(g, a, options, r);
    return r;
}

NetworkReport analyze_network(const Graph& g, const ReportOptions& options, const LayerRegistry& reg) {
    return analyze_network(g, analyze(g, reg), options);
}

}  // namespace lf
