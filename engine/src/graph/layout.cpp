#include "layerforge/graph/layout.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace lf {

namespace {

// Cards are 180 wide and 64+ tall: a layer gap leaves ~160 px between cards for an edge's
// shape label ("(?, 14, 14, 64)"), a row gap room for a label above and below.
constexpr double kLayerGap = 340, kRowGap = 120, kBandGap = 80;

struct Layering {
    std::vector<std::vector<std::string>> layers;
    std::unordered_map<std::string, int> layerOf, index;
    std::unordered_map<std::string, std::vector<std::string>> preds, succs;
};

Layering assignLayers(const Graph& g) {
    Layering L;
    std::unordered_map<std::string, int> indegree;
    for (const Node& n : g.nodes) indegree[n.id] = 0;
    for (const Edge& e : g.edges) {
        if (!indegree.count(e.from.node) || !indegree.count(e.to.node)) continue;
        L.succs[e.from.node].push_back(e.to.node);
        L.preds[e.to.node].push_back(e.from.node);
        ++indegree[e.to.node];
    }
    std::vector<std::string> ready;
    for (const Node& n : g.nodes)
        if (indegree[n.id] == 0) ready.push_back(n.id);
    for (const Node& n : g.nodes) L.layerOf[n.id] = 0;
    for (std::size_t i = 0; i < ready.size(); ++i)  // Kahn's order; nodes on a cycle stay in layer 0
        for (const std::string& s : L.succs[ready[i]]) {
            L.layerOf[s] = std::max(L.layerOf[s], L.layerOf[ready[i]] + 1);
            if (--indegree[s] == 0) ready.push_back(s);
        }
    for (const Node& n : g.nodes) {
        int layer = L.layerOf[n.id];
        if (int(L.layers.size()) <= layer) L.layers.resize(std::size_t(layer) + 1);
        L.index[n.id] = int(L.layers[std::size_t(layer)].size());
        L.layers[std::size_t(layer)].push_back(n.id);
    }
    return L;
}

// Orders one layer by the mean index of its neighbours in the adjacent layer.
void sortByBarycentre(Layering& L, std::vector<std::string>& layer,
                      const std::unordered_map<std::string, std::vector<std::string>>& neighbours) {
    std::unordered_map<std::string, double> key;
    for (const std::string& id : layer) {
        auto it = neighbours.find(id);
        if (it == neighbours.end() || it->second.empty()) { key[id] = L.index[id]; continue; }
        double sum = 0;
        for (const std::string& n : it->second) sum += L.index[n];
        key[id] = sum / double(it->second.size());
    }
    std::stable_sort(layer.begin(), layer.end(), [&](const auto& a, const auto& b) { return key[a] < key[b]; });
    for (std::size_t i = 0; i < layer.size(); ++i) L.index[layer[i]] = int(i);
}

// Layers ordered to reduce crossings.
Layering orderedLayers(const Graph& g) {
    Layering L = assignLayers(g);
    for (int sweep = 0; sweep < 4; ++sweep) {
        for (std::size_t i = 1; i < L.layers.size(); ++i) sortByBarycentre(L, L.layers[i], L.preds);
        for (std::size_t i = L.layers.size(); i-- > 1;) sortByBarycentre(L, L.layers[i - 1], L.succs);
    }
    return L;
}

}  // namespace

Layout layered_layout(const Graph& g, LayoutDirection direction) {
    const Layering L = orderedLayers(g);
    Layout at;
    for (std::size_t l = 0; l < L.layers.size(); ++l) {
        const auto& layer = L.layers[l];
        double offset = -double(layer.size() - 1) / 2;  // centre each layer on the main axis
        for (std::size_t i = 0; i < layer.size(); ++i) {
            double along = double(l) * kLayerGap, across = (offset + double(i)) * kRowGap;
            at[layer[i]] = direction == LayoutDirection::LeftToRight ? LayoutPoint{along, across}
                                                                     : LayoutPoint{across * 2, along / 2};
        }
    }
    return at;
}

// A long chain laid out in one row shrinks to unreadable bars when fitted. Here the layers go
// left to right in bands of `perBand` layers stacked top to bottom, with the band length that
// lets the whole graph fit `view` at the largest zoom.
Layout wrapped_layout(const Graph& g, double view_width, double view_height) {
    const Layering L = orderedLayers(g);
    const int layers = int(L.layers.size());
    auto bandHeights = [&](int perBand) {
        std::vector<double> heights;
        for (int first = 0; first < layers; first += perBand) {
            std::size_t widest = 1;
            for (int l = first; l < std::min(layers, first + perBand); ++l) widest = std::max(widest, L.layers[std::size_t(l)].size());
            heights.push_back(double(widest) * kRowGap + kBandGap);
        }
        return heights;
    };
    int best = std::max(layers, 1);
    double bestZoom = 0;
    for (int perBand = 1; perBand <= layers; ++perBand) {
        double height = 0;
        for (double h : bandHeights(perBand)) height += h;
        const double zoom = std::min(view_width / (double(perBand) * kLayerGap), view_height / height);
        if (zoom > bestZoom * 1.0001) bestZoom = zoom, best = perBand;
    }
    Layout at;
    const std::vector<double> heights = bandHeights(best);
    double top = 0;
    for (int l = 0; l < layers; ++l) {
        const int band = l / best;
        if (l > 0 && l % best == 0) top += (heights[std::size_t(band - 1)] + heights[std::size_t(band)]) / 2;
        const auto& layer = L.layers[std::size_t(l)];
        const double offset = -double(layer.size() - 1) / 2;
        for (std::size_t i = 0; i < layer.size(); ++i)
            at[layer[i]] = LayoutPoint{double(l % best) * kLayerGap, top + (offset + double(i)) * kRowGap};
    }
    return at;
}

int count_crossings(const Graph& g, const Layout& at, LayoutDirection direction) {
    auto across = [&](const std::string& id) {
        const LayoutPoint& p = at.at(id);
        return direction == LayoutDirection::LeftToRight ? p.y : p.x;
    };
    auto along = [&](const std::string& id) {
        const LayoutPoint& p = at.at(id);
        return direction == LayoutDirection::LeftToRight ? p.x : p.y;
    };
    int crossings = 0;
    for (std::size_t i = 0; i < g.edges.size(); ++i)
        for (std::size_t j = i + 1; j < g.edges.size(); ++j) {
            const Edge &a = g.edges[i], &b = g.edges[j];
            if (along(a.from.node) != along(b.from.node) || along(a.to.node) != along(b.to.node)) continue;
            double d1 = across(a.from.node) - across(b.from.node), d2 = across(a.to.node) - across(b.to.node);
            if (d1 * d2 < 0) ++crossings;
        }
    return crossings;
}

void apply_layout(Graph& g, const Layout& at) {
    for (Node& n : g.nodes)
        if (auto it = at.find(n.id); it != at.end()) n.x = it->second.x, n.y = it->second.y;
}

}  // namespace lf
