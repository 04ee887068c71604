#pragma once
// A validated graph with its weights: one contiguous buffer for all parameters and one for
// their gradients, so optimizers update every trainable weight in a single fused loop.
#include <cstdint>
#include <string>
#include <vector>

#include "layerforge/core/memory.h"
#include "layerforge/graph/analysis.h"

namespace lf {

struct WeightRef {
    std::string node;  // node id
    std::string name;  // "<layer name>/kernel", as Keras names variables
    Shape shape;
    std::size_t offset = 0, size = 0;
    bool trainable = true;
};

// Why a graph with this analysis cannot be trained: its errors, or not exactly one Input and
// one output layer; empty when it can. Model and Trainer refuse such a graph with this message,
// so the studio can say "trainable" only when training will accept the graph.
std::string training_graph_problem(const Analysis& a);
// Its part about the Input layers: "training needs exactly one Input layer; the model has 2".
std::string input_count_problem(const Analysis& a);

class Model {
public:
    // Analyzes the graph; throws lf::Error (Input) listing every error when it is not valid.
    explicit Model(Graph g);
    // The same analysis and weight_refs() without the weights, for estimates (Backend::estimate)
    // of models too large to hold: weights() and grads() are one placeholder float that every
    // ref points at (offset 0), as a counting plan's buffers are. Never run or train it.
    static Model shapes_only(Graph g);

    const Graph& graph() const { return graph_; }
    const Analysis& analysis() const { return analysis_; }
    const NodeInfo& info(const std::string& node) const { return analysis_.nodes.at(node); }

    // Writable access counts as a change: weights_version() moves on, and copies made from the
    // weights before (a plan's bfloat16 or blocked kernels) are made again before they are read.
    std::vector<float>& weights() {
        ++weights_version_;
        return weights_;
    }
    const std::vector<float>& weights() const { return weights_; }
    std::uint64_t weights_version() const { return weights_version_; }
    std::vector<float>& grads() { return grads_; }
    // Trainable weights come first in weights(); the rest (BatchNormalization's moving
    // statistics) are updated by their layers, never by an optimizer.
    std::size_t trainable_size() const { return trainable_size_; }
    const std::vector<WeightRef>& weight_refs() const { return refs_; }
    const WeightRef* find_weight(const std::string& name) const;
    std::vector<const WeightRef*> weights_of(const std::string& node) const;

    // Keras initialisers (glorot_uniform kernels, zero biases) from a seed.
    void init_weights(std::uint64_t seed);

    // The single Input and the single output node; throw lf::Error (Input) otherwise.
    const std::string& input_node() const;
    const std::string& output_node() const;

private:
    Model(Graph g, bool allocate);

    Graph graph_;
    Analysis analysis_;
    std::vector<float> weights_, grads_;
    std::vector<WeightRef> refs_;
    std::size_t trainable_size_ = 0;
    std::uint64_t weights_version_ = 0;
    MemoryLease lease_;  // weights and their gradients
};

}  // namespace lf
