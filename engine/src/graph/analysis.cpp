#include "layerforge/graph/analysis.h"

#include <algorithm>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "layerforge/core/checked.h"
#include "layerforge/core/error.h"
#include "layerforge/core/limits.h"

namespace lf {

bool Analysis::ok() const {
    return std::none_of(diagnostics.begin(), diagnostics.end(),
                        [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

std::vector<Diagnostic> Analysis::for_node(const std::string& id) const {
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : diagnostics)
        if (d.node == id) out.push_back(d);
    return out;
}

std::string Analysis::error_report() const {
    std::string s;
    for (const Diagnostic& d : diagnostics) {
        if (d.severity != Severity::Error) continue;
        if (!s.empty()) s += "\n";
        s += d.node.empty() ? "graph" : "node '" + d.node + "'";
        s += ": " + (d.field.empty() ? "" : d.field + ": ") + d.message;
    }
    return s;
}

namespace {

class Analyzer {
public:
    // Indexes nodes and edges once, so that analysing a 1,000-node graph stays linear.
    Analyzer(const Graph& g, const LayerRegistry& reg) : g_(g), reg_(reg) {
        for (const Node& n : g.nodes) by_id_.emplace(n.id, &n);  // the first of duplicates, like Graph::find
        for (const Edge& e : g.edges) {
            inputs_[e.to.node].push_back(e);
            outputs_[e.from.node].push_back(e);
        }
        for (auto& [id, in] : inputs_)
            std::stable_sort(in.begin(), in.end(), [](const Edge& a, const Edge& b) { return a.to.port < b.to.port; });
    }

    Analysis run() {
        check_nodes();
        check_edges();
        sort_topologically();
        a_.inferred_begin = a_.diagnostics.size();
        for (const std::string& id : a_.order)
            if (auto problem = infer(id)) error(id, "", *problem);
        a_.inferred_end = a_.diagnostics.size();
        find_inputs_and_outputs();
        return std::move(a_);
    }

    // See reanalyze(). Returns false when the edit needs a full analysis.
    bool update(Analysis& a, const std::vector<std::string>& edited, std::vector<std::string>& changed) {
        for (std::size_t i = 0; i < a.inferred_begin; ++i) has_error_.insert(a.diagnostics[i].node);
        std::unordered_map<std::string, std::size_t> position;  // in the topological order
        for (std::size_t i = 0; i < a.order.size(); ++i) position.emplace(a.order[i], i);
        std::set<std::pair<std::size_t, std::string>> queue;  // topological position, id
        for (const std::string& id : edited) {
            const Node* n = find(id);
            auto info = a.nodes.find(id);
            auto at = position.find(id);
            if (!n || info == a.nodes.end() || at == position.end() || has_error_.count(id)) return false;
            if (!text_problem(n->name, kMaxNameBytes).empty()) return false;  // a new name problem
            if (!info->second.spec) continue;  // unknown type: reported, never inferred
            if (info->second.spec != reg_.find(n->type)) return false;
            std::vector<ParamProblem> problems;
            Params params = resolve_params(*info->second.spec, n->params, problems);
            if (!problems.empty()) return false;
            info->second.params = std::move(params);
            queue.emplace(at->second, id);
        }
        a_ = std::move(a);
        std::unordered_map<std::string, std::string> problems;  // new inference errors of re-inferred nodes
        while (!queue.empty()) {
            const std::string id = queue.begin()->second;
            queue.erase(queue.begin());
            NodeInfo& info = a_.nodes[id];
            const NodeInfo before = forget(info);
            if (auto problem = infer(id)) problems[id] = *problem;
            bool reshaped = info.shaped != before.shaped || !(info.layer.output == before.layer.output);
            if (reshaped || info.param_count != before.param_count || problems.count(id) || had_problem(a_, id))
                changed.push_back(id);
            if (!reshaped) continue;
            for (const Edge& e : edges(outputs_, id))
                if (auto at = position.find(e.to.node); at != position.end()) queue.emplace(at->second, e.to.node);
        }
        replace_inferred_problems(changed, problems, position);
        a = std::move(a_);
        return true;
    }

private:
    void error(const std::string& node, const std::string& field, const std::string& msg) {
        a_.diagnostics.push_back({node, field, Severity::Error, msg});
        has_error_.insert(node);
    }

    const Node* find(const std::string& id) const {
        auto it = by_id_.find(id);
        return it == by_id_.end() ? nullptr : it->second;
    }

    const std::vector<Edge>& edges(const std::unordered_map<std::string, std::vector<Edge>>& index,
                                   const std::string& id) const {
        static const std::vector<Edge> none;
        auto it = index.find(id);
        return it == index.end() ? none : it->second;
    }

    void check_nodes() {
        std::set<std::string> ids;
        for (const Node& n : g_.nodes) {
            if (!ids.insert(n.id).second) error(n.id, "", "duplicate node id");
            if (std::string problem = text_problem(n.name, kMaxNameBytes); !problem.empty())
                error(n.id, "name", "the name " + problem);
            NodeInfo& info = a_.nodes[n.id];
            info.spec = reg_.find(n.type);
            if (!info.spec) {
                error(n.id, "type", "unknown layer type '" + n.type + "' (run `layerforge-cli layers` for the list)");
                continue;
            }
            std::vector<ParamProblem> problems;
            info.params = resolve_params(*info.spec, n.params, problems);
            for (const ParamProblem& p : problems) error(n.id, p.field, p.message);
        }
    }

    void check_edges() {
        std::set<std::pair<std::string, int>> fed;
        for (const Edge& e : g_.edges) {
            const Node* from = find(e.from.node);
            const Node* to = find(e.to.node);
            if (!to) {
                error(e.from.node, "", "edge " + e.from.str() + " -> " + e.to.str() + " ends at a missing node");
                continue;
            }
            if (!from) {
                error(e.to.node, "inputs", "edge from missing node '" + e.from.node + "'");
                continue;
            }
            if (e.from.port != 0) error(e.from.node, "", "has one output port; edge uses port " + std::to_string(e.from.port));
            const LayerSpec* spec = a_.nodes[to->id].spec;
            if (spec && spec->max_inputs >= 0 && e.to.port >= spec->max_inputs)
                error(to->id, "inputs", spec->type + " has " + std::to_string(spec->max_inputs) +
                                            " input port(s); edge uses port " + std::to_string(e.to.port));
            if (e.to.port < 0) error(to->id, "inputs", "negative input port");
            if (!fed.insert({e.to.node, e.to.port}).second)
                error(to->id, "inputs", "input port " + std::to_string(e.to.port) + " is connected twice");
        }
        for (const Node& n : g_.nodes) {
            const LayerSpec* spec = a_.nodes[n.id].spec;
            if (!spec) continue;
            // Ports in use, each once (a doubly fed or out-of-range port is reported above).
            std::set<int> ports;
            for (const Edge& e : valid_inputs(n.id))
                if (spec->max_inputs < 0 || e.to.port < spec->max_inputs) ports.insert(e.to.port);
            const int count = int(ports.size());
            for (int port = 0; !ports.empty() && port < *ports.rbegin(); ++port)
                if (!ports.count(port)) {
                    error(n.id, "inputs", "input port " + std::to_string(port) + " is not connected");
                    break;
                }
            if (count < spec->min_inputs) {
                std::string need = spec->min_inputs == 1 ? "an input" : std::to_string(spec->min_inputs) + " inputs";
                error(n.id, "inputs", spec->type + " needs " + need + "; connect " +
                                          (count ? "more layers" : "a layer") + " to it");
            }
        }
    }

    std::vector<Edge> valid_inputs(const std::string& id) const {
        std::vector<Edge> in;
        for (const Edge& e : edges(inputs_, id))
            if (find(e.from.node) && e.to.port >= 0) in.push_back(e);
        return in;
    }

    void sort_topologically() {
        std::map<std::string, int> indegree;
        for (const Node& n : g_.nodes) indegree[n.id] = 0;
        for (const Edge& e : g_.edges)
            if (indegree.count(e.from.node) && indegree.count(e.to.node)) ++indegree[e.to.node];
        std::vector<std::string> ready;
        for (const Node& n : g_.nodes)
            if (indegree[n.id] == 0) ready.push_back(n.id);
        for (std::size_t i = 0; i < ready.size(); ++i) {
            a_.order.push_back(ready[i]);
            for (const Edge& e : edges(outputs_, ready[i]))
                if (indegree.count(e.to.node) && --indegree[e.to.node] == 0) ready.push_back(e.to.node);
        }
        if (a_.order.size() == g_.nodes.size()) return;
        report_cycles(indegree);
    }

    // The nodes left unsorted lie on a cycle or after one. Only those on a cycle (a strongly
    // connected component of two or more nodes, or a node fed by itself) are at fault: each is
    // told which cycle; the nodes after it are simply not shaped.
    void report_cycles(const std::map<std::string, int>& indegree) {
        std::vector<std::string> left;
        std::unordered_map<std::string, int> index, low;
        for (const Node& n : g_.nodes)
            if (indegree.at(n.id) > 0 && !index.count(n.id)) left.push_back(n.id), index[n.id] = -1;
        // Tarjan's algorithm without recursion (a cycle may be thousands of nodes long).
        int counter = 0;
        std::vector<std::string> stack;
        std::unordered_set<std::string> on_stack;
        for (const std::string& root : left) {
            if (index[root] >= 0) continue;
            std::vector<std::pair<std::string, std::size_t>> dfs{{root, 0}};  // node, next out-edge
            index[root] = low[root] = counter++;
            stack.push_back(root);
            on_stack.insert(root);
            while (!dfs.empty()) {
                auto& [id, next] = dfs.back();
                const std::vector<Edge>& out = edges(outputs_, id);
                if (next < out.size()) {
                    const std::string& to = out[next++].to.node;
                    auto at = index.find(to);
                    if (at == index.end()) continue;  // sorted already: not on a cycle
                    if (at->second < 0) {
                        index[to] = low[to] = counter++;
                        stack.push_back(to);
                        on_stack.insert(to);
                        dfs.emplace_back(to, 0);
                    } else if (on_stack.count(to)) {
                        low[id] = std::min(low[id], at->second);
                    }
                    continue;
                }
                const std::string done = id;
                dfs.pop_back();
                if (!dfs.empty()) low[dfs.back().first] = std::min(low[dfs.back().first], low[done]);
                if (low[done] != index[done]) continue;
                std::vector<std::string> component;
                do {
                    component.push_back(stack.back());
                    on_stack.erase(stack.back());
                    stack.pop_back();
                } while (component.back() != done);
                report_cycle(component);
            }
        }
    }

    void report_cycle(std::vector<std::string> component) {
        const bool self_loop = std::any_of(edges(outputs_, component[0]).begin(), edges(outputs_, component[0]).end(),
                                           [&](const Edge& e) { return e.to.node == component[0]; });
        if (component.size() == 1 && !self_loop) return;
        std::reverse(component.begin(), component.end());  // Tarjan pops them against the flow
        std::string members;
        for (std::size_t i = 0; i < component.size() && i < 8; ++i) members += (i ? ", '" : "'") + component[i] + "'";
        if (component.size() > 8) members += " and " + std::to_string(component.size() - 8) + " more";
        const std::string what = self_loop && component.size() == 1 ? "feeds itself" : "is part of a cycle through " + members;
        for (const std::string& id : component)
            error(id, "inputs", what + "; a network must flow one way from Input to output");
    }

    // Infers the node's output shape and weights from its inputs; returns the shape rule's
    // complaint, if any.
    std::optional<std::string> infer(const std::string& id) {
        NodeInfo& info = a_.nodes[id];
        if (!info.spec) return std::nullopt;
        for (const Edge& e : valid_inputs(id)) {
            const NodeInfo& src = a_.nodes[e.from.node];
            if (!src.shaped) return std::nullopt;  // the problem is reported upstream
            info.inputs.push_back(src.layer.output);
        }
        if (int(info.inputs.size()) < info.spec->min_inputs) return std::nullopt;
        if (has_error_.count(id)) return std::nullopt;
        std::int64_t params = 0, trainable = 0, total_params = 0, total_trainable = 0, flops = 0;
        try {
            info.layer = info.spec->infer(info.params, info.inputs);
            info.layer.output.elements();  // checks that the output's size is representable
            // A frozen layer's weights are all non-trainable, as Keras counts them; the model
            // then keeps them out of the optimizer's range.
            if (const Node* n = g_.find(id); n && !n->trainable)
                for (WeightSpec& w : info.layer.weights) w.trainable = false;
            for (const WeightSpec& w : info.layer.weights) {
                params = add_size(params, w.shape.elements());
                if (w.trainable) trainable = add_size(trainable, w.shape.elements());
            }
            total_params = add_size(a_.total_params, params);
            total_trainable = add_size(a_.trainable_params, trainable);
            flops = add_size(a_.flops, info.layer.flops);
        } catch (const Error& e) {
            info.layer = LayerInfo{};
            return e.what();
        }
        info.shaped = true;
        info.param_count = params;
        a_.total_params = total_params;
        a_.trainable_params = total_trainable;
        a_.flops = flops;
        return std::nullopt;
    }

    // Takes back what infer() derived for a node (and added to the totals); returns the old state.
    NodeInfo forget(NodeInfo& info) {
        NodeInfo before = info;
        for (const WeightSpec& w : info.layer.weights)
            if (w.trainable) a_.trainable_params -= w.shape.elements();
        a_.total_params -= info.param_count;
        a_.flops -= info.layer.flops;
        info.inputs.clear();
        info.shaped = false;
        info.layer = LayerInfo{};
        info.param_count = 0;
        return before;
    }

    static bool had_problem(const Analysis& a, const std::string& id) {
        for (std::size_t i = a.inferred_begin; i < a.inferred_end; ++i)
            if (a.diagnostics[i].node == id) return true;
        return false;
    }

    // Swaps the inference errors of the re-inferred nodes for their new ones, in topological order.
    void replace_inferred_problems(const std::vector<std::string>& redone,
                                   const std::unordered_map<std::string, std::string>& problems,
                                   const std::unordered_map<std::string, std::size_t>& position) {
        if (problems.empty() && a_.inferred_begin == a_.inferred_end) return;
        std::unordered_set<std::string> replaced(redone.begin(), redone.end());
        std::vector<std::pair<std::size_t, Diagnostic>> inferred;
        for (std::size_t i = a_.inferred_begin; i < a_.inferred_end; ++i)
            if (!replaced.count(a_.diagnostics[i].node))
                inferred.emplace_back(position.at(a_.diagnostics[i].node), std::move(a_.diagnostics[i]));
        for (const auto& [id, message] : problems)
            inferred.emplace_back(position.at(id), Diagnostic{id, "", Severity::Error, message});
        std::sort(inferred.begin(), inferred.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
        std::vector<Diagnostic> all(std::make_move_iterator(a_.diagnostics.begin()),
                                    std::make_move_iterator(a_.diagnostics.begin() + std::ptrdiff_t(a_.inferred_begin)));
        for (auto& [at, d] : inferred) all.push_back(std::move(d));
        all.insert(all.end(), std::make_move_iterator(a_.diagnostics.begin() + std::ptrdiff_t(a_.inferred_end)),
                   std::make_move_iterator(a_.diagnostics.end()));
        a_.inferred_end = a_.inferred_begin + inferred.size();
        a_.diagnostics = std::move(all);
    }

    void find_inputs_and_outputs() {
        std::set<std::string> consumed;
        for (const Edge& e : g_.edges) consumed.insert(e.from.node);
        for (const Node& n : g_.nodes) {
            if (n.type == "Input") a_.inputs.push_back(n.id);
            if (!consumed.count(n.id)) a_.outputs.push_back(n.id);
        }
        if (g_.nodes.empty()) error("", "", "the graph has no layers; add an Input layer and the layers after it");
        else if (a_.inputs.empty()) error("", "", "the graph has no Input layer; add one");
    }

    const Graph& g_;
    const LayerRegistry& reg_;
    Analysis a_;
    std::unordered_map<std::string, const Node*> by_id_;
    std::unordered_map<std::string, std::vector<Edge>> inputs_, outputs_;  // by consumer / producer id
    std::unordered_set<std::string> has_error_;                            // nodes with an Error diagnostic
};

}  // namespace

Analysis analyze(const Graph& g, const LayerRegistry& reg) { return Analyzer(g, reg).run(); }

std::vector<std::string> reanalyze(const Graph& g, Analysis& a, const std::vector<std::string>& edited,
                                   const LayerRegistry& reg) {
    std::vector<std::string> changed;
    if (Analyzer(g, reg).update(a, edited, changed)) return changed;
    a = analyze(g, reg);
    changed.clear();
    for (const Node& n : g.nodes) changed.push_back(n.id);
    return changed;
}

}  // namespace lf
