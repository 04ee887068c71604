#include "layerforge/graph/model.h"

#include <cmath>
#include <random>
#include <set>

#include "layerforge/core/error.h"

namespace lf {

Model::Model(Graph g) : Model(std::move(g), true) {}

Model Model::shapes_only(Graph g) { return Model(std::move(g), false); }

Model::Model(Graph g, bool allocate) : graph_(std::move(g)), analysis_(analyze(graph_)) {
    std::set<std::string> names;
    for (const Node& n : graph_.nodes)
        if (!names.insert(n.name).second)
            analysis_.diagnostics.push_back({n.id, "name", Severity::Error,
                                             "layer name '" + n.name + "' is used twice; weights are stored by name"});
    if (!analysis_.ok()) throw input_error("the model is not valid:\n" + analysis_.error_report());
    for (const std::string& id : analysis_.order) {
        const Node& node = *graph_.find(id);
        for (const WeightSpec& w : analysis_.nodes.at(id).layer.weights)
            refs_.push_back({id, node.name + "/" + w.name, w.shape, 0, std::size_t(w.shape.elements()), w.trainable});
    }
    // Trainable weights first, so optimizers update the prefix [0, trainable_size()).
    std::size_t offset = 0;
    for (bool trainable : {true, false}) {
        for (WeightRef& r : refs_)
            if (r.trainable == trainable) {
                r.offset = allocate ? offset : 0;
                offset += r.size;
            }
        if (trainable) trainable_size_ = offset;
    }
    if (!allocate) offset = 1;  // the placeholder, not counted as held
    weights_.assign(offset, 0.f);
    grads_.assign(weights_.size(), 0.f);
    if (allocate) lease_ = MemoryLease({.weights = offset * sizeof(float), .gradients = offset * sizeof(float)});
}

const WeightRef* Model::find_weight(const std::string& name) const {
    for (const WeightRef& r : refs_)
        if (r.name == name) return &r;
    return nullptr;
}

std::vector<const WeightRef*> Model::weights_of(const std::string& node) const {
    std::vector<const WeightRef*> out;
    for (const WeightRef& r : refs_)
        if (r.node == node) out.push_back(&r);
    return out;
}

void Model::init_weights(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::size_t i = 0;
    for (const std::string& id : analysis_.order) {
        for (const WeightSpec& w : analysis_.nodes.at(id).layer.weights) {
            const WeightRef& r = refs_[i++];
            float* p = weights().data() + r.offset;
            if (w.init == Init::GlorotUniform) {
                float limit = float(std::sqrt(6.0 / double(w.fan_in + w.fan_out)));
                std::uniform_real_distribution<float> dist(-limit, limit);
                for (std::size_t k = 0; k < r.size; ++k) p[k] = dist(rng);
            } else {
                std::fill(p, p + r.size, w.init == Init::Ones ? 1.f : 0.f);
            }
        }
    }
}

namespace {

std::string output_count_problem(const Analysis& a) {
    if (a.outputs.size() == 1) return "";
    std::string list;
    for (const auto& o : a.outputs) list += (list.empty() ? "" : ", ") + o;
    return "training needs exactly one output layer; the model ends in " + std::to_string(a.outputs.size()) + " (" +
           list + ")";
}

}  // namespace

std::string input_count_problem(const Analysis& a) {
    if (a.inputs.size() == 1) return "";
    return "training needs exactly one Input layer; the model has " + std::to_string(a.inputs.size());
}

std::string training_graph_problem(const Analysis& a) {
    if (!a.ok()) return a.error_report();
    if (std::string p = input_count_problem(a); !p.empty()) return p;
    return output_count_problem(a);
}

const std::string& Model::input_node() const {
    if (std::string p = input_count_problem(analysis_); !p.empty()) throw input_error(p);
    return analysis_.inputs[0];
}

const std::string& Model::output_node() const {
    if (std::string p = output_count_problem(analysis_); !p.empty()) throw input_error(p);
    return analysis_.outputs[0];
}

}  // namespace lf
