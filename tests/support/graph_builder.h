#pragma once
// Builds small graphs in tests: each add() names the producers feeding the new node in port order.
#include <string>
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
