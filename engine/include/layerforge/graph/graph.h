#pragma once
// The model graph as the user drew it: nodes with Keras type names and parameters,
// edges between "node:port" pairs. Pure data; validation lives in analysis.h.
#include <optional>
#include <string>
#include <vector>

#include "layerforge/core/params.h"

namespace lf {

struct PortRef {
    std::string node;
    int port = 0;
    bool operator==(const PortRef&) const = default;
    std::string str() const { return node + ":" + std::to_string(port); }
};

struct Edge {
    PortRef from;  // producer output port
    PortRef to;    // consumer input port
    bool operator==(const Edge&) const = default;
};

struct Node {
    std::string id;    // stable, unique within the graph
    std::string type;  // registry name: "Dense", "Conv2D", ...
    std::string name;  // user-facing name, also used for weight names
    Params params;
    double x = 0, y = 0;  // canvas position
    // Keras' `trainable`: false freezes the layer's weights (no gradient, no optimizer update)
    // and runs a BatchNormalization in inference mode, as Keras does when fine-tuning.
    bool trainable = true;
    bool operator==(const Node&) const = default;
};

// A named, collapsible block of nodes on the canvas. Layout only: the model ignores it.
struct NodeGroup {
    std::string id;                  // unique among the groups
    std::string name;                // the frame's title
    std::vector<std::string> nodes;  // node ids; a node is in at most one group
    bool collapsed = false;          // drawn as a single card
    bool operator==(const NodeGroup&) const = default;
};

struct Graph {
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    std::vector<NodeGroup> groups;

    const Node* find(const std::string& id) const;
    Node* find(const std::string& id);
    std::vector<Edge> inputs_of(const std::string& id) const;  // sorted by input port
    const NodeGroup* group_of(const std::string& node) const;   // null when in none
    bool operator==(const Graph&) const = default;
};

}  // namespace lf
