#pragma once
// "Analyze network" (MATLAB's analyzeNetwork): one report of a whole graph, its errors (the
// validation of analysis.h), warnings about designs that will train badly or not fit, and each
// layer's cost: output shape, parameters, FLOPs, and the bytes its output and weights take at
// a batch size. From shape inference alone: nothing is allocated, so a graph whose tensors would
// need terabytes is reported as quickly as a small one.
#include <cstdint>
#include <string>
#include <vector>

#include "layerforge/graph/analysis.h"

namespace lf {

struct ReportOptions {
    std::int64_t batch = 32;
    std::string loss;          // the training loss type ("SparseCategoricalCrossentropy"); empty: none
    bool from_logits = false;  // the loss's from_logits
    // A layer whose output for one batch exceeds this is named in a warning.
    std::int64_t huge_activation_bytes = std::int64_t(256) << 20;
    // A Dense fed by a Flatten with at least this many features is named in a warning.
    std::int64_t large_flatten_features = 25'000;
};

struct LayerCost {
    std::string node, type, name;
    bool shaped = false;               // the output shape is known (no error upstream)
    Shape output;
    std::int64_t params = 0, trainable_params = 0;
    std::int64_t flops = 0;            // forward, per sample
    std::int64_t activation_bytes = 0; // the output for one batch; 0 for a view of its input
    std::int64_t weight_bytes = 0;
    // Training: the output and its gradient (an Input has none), the weights, their gradients.
    // Saturates, never wraps.
    std::int64_t training_bytes = 0;
};

struct NetworkReport {
    std::vector<Diagnostic> errors;    // what stops the graph from building or training
    std::vector<Diagnostic> warnings;  // what will train badly or not fit
    std::vector<LayerCost> layers;     // topological order (graph order where there is a cycle)
    std::int64_t total_params = 0, trainable_params = 0, flops = 0;
    std::int64_t activation_bytes = 0, weight_bytes = 0, training_bytes = 0;
    std::int64_t batch = 0;
};

// `a` is analyze(g) (the studio keeps one per edit).
NetworkReport analyze_network(const Graph& g, const Analysis& a, const ReportOptions& options);
NetworkReport analyze_network(const Graph& g, const ReportOptions& options,
                              const LayerRegistry& reg = LayerRegistry::instance());

}  // namespace lf
