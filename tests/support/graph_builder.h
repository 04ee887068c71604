#pragma once
// Builds small graphs in tests: each add() names the producers feeding the new node in port order.
#include <cctype>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "layerforge/graph/graph.h"

struct GraphBuilder {
    lf::Graph graph;

    std::string add(const std::string& type, lf::Params params = {}, std::vector<std::string> inputs = {}) {
        std::string id = type + "_" + std::to_string(graph.nodes.size());
        for (auto& c : id) c = char(std::tolower(static_cast<unsigned char>(c)));
        graph.nodes.push_back({id, type, id, std::move(params), 0, 0});
        for (std::size_t i = 0; i < inputs.size(); ++i) graph.edges.push_back({{inputs[i], 0}, {id, int(i)}});
        return id;
    }
};

// Input(shape) -> Flatten -> Dense(hidden, activation) -> Dense(classes) -> Softmax; the defaults
// are the tutorial MLP. Node ids: input_0, flatten_1, dense_2, dense_3, softmax_4.
inline GraphBuilder mlp_builder(lf::IntList shape = {28, 28, 1}, std::int64_t hidden = 100,
                                const std::string& activation = "relu", std::int64_t classes = 10) {
    GraphBuilder b;
    auto in = b.add("Input", {{"shape", std::move(shape)}});
    auto f = b.add("Flatten", {}, {in});
    auto d1 = b.add("Dense", {{"units", hidden}, {"activation", activation}}, {f});
    auto d2 = b.add("Dense", {{"units", classes}}, {d1});
    b.add("Softmax", {}, {d2});
    return b;
}
