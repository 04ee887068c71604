#pragma once
// Validation, shape inference and counting over a Graph. Cheap and compute-free, so it can run
// on every canvas edit. Diagnostics are tied to node ids (and a field when there is one).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "layerforge/graph/graph.h"
#include "layerforge/layers/registry.h"

namespace lf {

enum class Severity { Error, Warning };

struct Diagnostic {
    std::string node;   // node id; empty for graph-level problems
    std::string field;  // parameter name or "inputs"; may be empty
    Severity severity = Severity::Error;
    std::string message;
};

struct NodeInfo {
    const LayerSpec* spec = nullptr;
    Params params;                 // resolved: defaults filled, kinds converted
    std::vector<Shape> inputs;     // shapes arriving at each input port
    bool shaped = false;           // output shape is known
    LayerInfo layer;               // output shape, weights, flops
    std::int64_t param_count = 0;
};

struct Analysis {
    std::vector<Diagnostic> diagnostics;
    std::vector<std::string> order;  // topological order (complete only when acyclic)
    std::map<std::string, NodeInfo> nodes;
    std::vector<std::string> inputs;   // Input node ids, in graph order
    std::vector<std::string> outputs;  // nodes whose output nobody consumes
    std::int64_t total_params = 0, trainable_params = 0, flops = 0;
    // diagnostics[inferred_begin, inferred_end) are shape-inference errors, one per node at most,
    // in topological order; before them the node, parameter and edge checks, after them the
    // graph-level ones. reanalyze() replaces only the middle part.
    std::size_t inferred_begin = 0, inferred_end = 0;

    bool ok() const;  // no Error diagnostics
    std::vector<Diagnostic> for_node(const std::string& id) const;
    std::string error_report() const;  // one line per error: "node 'dense': units: must be >= 1"
};

Analysis analyze(const Graph& g, const LayerRegistry& reg = LayerRegistry::instance());

// Updates `a`, the analysis of `g` before the parameters or names of the `edited` nodes
// changed (the same nodes, types and edges): re-resolves the edited nodes' parameters and
// re-infers shapes from them downstream, stopping wherever an output shape comes out as it
// was; the rest is reused. Falls back on analyze() when an edited node has, or had, a
// parameter or structural problem. Afterwards `a` equals analyze(g). Returns the ids of the
// nodes whose shapes, parameter counts or inference errors changed (all nodes after a
// fallback).
std::vector<std::string> reanalyze(const Graph& g, Analysis& a, const std::vector<std::string>& edited,
                                   const LayerRegistry& reg = LayerRegistry::instance());

}  // namespace lf
