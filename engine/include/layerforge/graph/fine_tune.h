#pragma once
// Graph edits for fine-tuning a pretrained network: which layers "Freeze up to here" freezes,
// and "Replace head". Pure functions of a Graph, so the studio applies each as one undo step and
// tests check them without a window.
#include <cstdint>
#include <string>
#include <vector>

#include "layerforge/graph/graph.h"

namespace lf {

// `node` and every node it depends on (its ancestors), in graph order. Throws lf::Error (Input)
// when the graph has no such node.
std::vector<std::string> nodes_up_to(const Graph& g, const std::string& node);

struct HeadReplacement {
    Graph graph;
    std::vector<std::string> removed;  // ids of the nodes cut away, in graph order
    std::vector<std::string> added;    // ids of the new head: [GlobalAveragePooling2D,] Dense
};

// Cuts the graph after `after` (keeps it and the layers it depends on; everything else goes,
// groups keep their remaining members) and attaches GlobalAveragePooling2D, when `after`
// outputs a feature map (height, width, channels), and Dense(classes, softmax). Kept layers keep
// their ids and names, so their weights (stored by layer name) stay theirs; the new layers get
// unused ids and names and are trainable. Throws lf::Error (Input) when `after` is not in the
// graph, classes < 1, or its output shape is unknown or neither a feature map nor a vector.
HeadReplacement replace_head(const Graph& g, const std::string& after, std::int64_t classes);

}  // namespace lf
