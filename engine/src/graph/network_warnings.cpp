// Each rule looks at one layer (and the layer feeding it) and says what to change. The rules
// read resolved parameters and inferred shapes only, so they cost a pass over the graph.
#include "graph/network_warnings.h"

#include <cstdio>
#include <unordered_map>

namespace lf::report_detail {

namespace {

std::string bytes_text(std::int64_t bytes) {
    char buf[32];
    if (bytes >= 1'000'000'000'000) std::snprintf(buf, sizeof buf, "%.1f TB", double(bytes) / 1e12);
    else if (bytes >= 1'000'000'000) std::snprintf(buf, sizeof buf, "%.1f GB", double(bytes) / 1e9);
    else std::snprintf(buf, sizeof buf, "%.1f MB", double(bytes) / 1e6);
    return buf;
}

// 3211264 -> "3,211,264": the counts in these messages run to millions.
std::string grouped(std::int64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-') out += ',';
        out += digits[i];
    }
    return out;
}

const std::string& text_param(const NodeInfo& n, const char* name) {
    static const std::string none;
    auto it = n.params.find(name);
    if (it == n.params.end()) return none;
    const auto* s = std::get_if<std::string>(&it->second);
    return s ? *s : none;
}

bool flag_param(const NodeInfo& n, const char* name) {
    auto it = n.params.find(name);
    const bool* b = it == n.params.end() ? nullptr : std::get_if<bool>(&it->second);
    return b && *b;
}

// The activation a layer applies to its output: its `activation` parameter, or what an
// activation layer is ("ReLU" -> "relu"); "" for none.
std::string activation_of(const Node& node, const NodeInfo& info) {
    if (node.type == "Activation") return text_param(info, "activation");
    if (node.type == "ReLU") return "relu";
    if (node.type == "Softmax") return "softmax";
    if (node.type == "Sigmoid") return "sigmoid";
    if (node.type == "Tanh") return "tanh";
    const std::string& a = text_param(info, "activation");
    return a == "linear" ? std::string() : a;
}

bool is_activation_layer(const std::string& type) {
    return type == "Activation" || type == "ReLU" || type == "Softmax" || type == "Sigmoid" || type == "Tanh";
}

bool is_window_layer(const std::string& type) {
    return type == "Conv2D" || type == "DepthwiseConv2D" || type == "MaxPool2D" || type == "AveragePooling2D";
}

struct Context {
    const Graph& g;
    const Analysis& a;
    const ReportOptions& o;
    NetworkReport& r;
    std::unordered_map<std::string, const Node*> nodes;
    std::unordered_map<std::string, std::vector<std::string>> producers, consumers;  // by input port order

    void warn(const std::string& node, const std::string& field, std::string message) {
        r.warnings.push_back({node, field, Severity::Warning, std::move(message)});
    }
    const Node* producer(const std::string& id) const {
        auto it = producers.find(id);
        return it == producers.end() || it->second.size() != 1 ? nullptr : nodes.at(it->second[0]);
    }
    const NodeInfo* info(const std::string& id) const {
        auto it = a.nodes.find(id);
        return it == a.nodes.end() ? nullptr : &it->second;
    }
    std::size_t consumer_count(const std::string& id) const {
        auto it = consumers.find(id);
        return it == consumers.end() ? 0 : it->second.size();
    }
};

void huge_activation(Context& c, const LayerCost& l) {
    if (l.activation_bytes < c.o.huge_activation_bytes) return;
    c.warn(l.node, "", "its output " + l.output.str() + " takes " + bytes_text(l.activation_bytes) + " for a batch of " +
                           grouped(c.o.batch) + " (twice that while training): downsample earlier "
                           "(strides, pooling) or lower the batch size");
}

void dense_after_flatten(Context& c, const Node& n, const LayerCost& l) {
    const Node* p = c.producer(n.id);
    if (n.type != "Dense" || !p || p->type != "Flatten" || !l.shaped) return;
    const NodeInfo* flat = c.info(p->id);
    if (!flat || !flat->shaped || flat->layer.output.rank() != 1) return;
    const Dim features = flat->layer.output[0];
    if (features < c.o.large_flatten_features) return;
    c.warn(n.id, "", "a Dense after a Flatten of " + grouped(features) + " features: its kernel alone has " +
                         grouped(l.params) + " parameters; pool further first (MaxPool2D, or "
                         "GlobalAveragePooling2D instead of the Flatten)");
}

void redundant_activation(Context& c, const Node& n) {
    const Node* p = c.producer(n.id);
    if (!p || !is_activation_layer(n.type) || !c.info(p->id)) return;
    const std::string mine = activation_of(n, *c.info(n.id));
    if (!mine.empty() && mine != "softmax" && mine == activation_of(*p, *c.info(p->id)))
        c.warn(n.id, "", "applies " + mine + " to the output of '" + p->id + "', which already applied it: remove one");
}

void bias_before_norm(Context& c, const Node& n) {
    const Node* p = c.producer(n.id);
    if (n.type != "BatchNormalization" || !p || c.consumer_count(p->id) != 1) return;
    const NodeInfo* info = c.info(p->id);
    if (!info || (p->type != "Dense" && p->type != "Conv2D" && p->type != "DepthwiseConv2D")) return;
    if (flag_param(*info, "use_bias") && activation_of(*p, *info).empty())
        c.warn(p->id, "use_bias", "its bias is cancelled by the BatchNormalization after it: turn use_bias off");
}

void strides_skip_pixels(Context& c, const Node& n) {
    if (!is_window_layer(n.type)) return;
    const Params& p = c.info(n.id)->params;  // a layer of the report: analysed
    auto k = p.find(n.type.starts_with("Conv") || n.type.starts_with("Depthwise") ? "kernel_size" : "pool_size");
    auto s = p.find("strides");
    if (k == p.end() || s == p.end()) return;
    const auto* kernel = std::get_if<IntList>(&k->second);
    const auto* strides = std::get_if<IntList>(&s->second);
    if (!kernel || !strides || kernel->size() != strides->size()) return;
    for (std::size_t i = 0; i < kernel->size(); ++i)
        if ((*strides)[i] > (*kernel)[i]) {
            c.warn(n.id, "strides", "strides larger than the window skip input pixels entirely");
            return;
        }
}

void softmax_inside(Context& c, const Node& n) {
    if (c.consumer_count(n.id) == 0 || activation_of(n, *c.info(n.id)) != "softmax") return;
    c.warn(n.id, "", "a softmax before the last layer squashes its values into probabilities: use it at the output only");
}

// The loss reads the output as probabilities unless from_logits; a softmax (sigmoid) makes them.
void output_matches_loss(Context& c) {
    if (c.o.loss.empty() || c.a.outputs.size() != 1) return;
    const std::string& out = c.a.outputs[0];
    if (!c.nodes.count(out) || !c.info(out)) return;
    const std::string act = activation_of(*c.nodes.at(out), *c.info(out));
    const bool categorical = c.o.loss == "SparseCategoricalCrossentropy" || c.o.loss == "CategoricalCrossentropy";
    const bool binary = c.o.loss == "BinaryCrossentropy";
    const std::string wanted = categorical ? "softmax" : binary ? "sigmoid" : "";
    if (wanted.empty()) return;
    if (!c.o.from_logits && act != wanted)
        c.warn(out, "", c.o.loss + " expects probabilities but the output has no " + wanted +
                            ": set its activation to " + wanted + ", or the loss's from_logits");
    if (c.o.from_logits && act == wanted)
        c.warn(out, "", c.o.loss + " has from_logits on but the output already applies " + wanted +
                            ": it is applied twice; turn from_logits off");
}

void no_trainable(Context& c) {
    if (!c.g.nodes.empty() && c.r.errors.empty() && c.r.trainable_params == 0)
        c.warn("", "", "no layer has trainable parameters: training cannot change the output");
}

}  // namespace

void add_warnings(const Graph& g, const Analysis& a, const ReportOptions& options, NetworkReport& r) {
    Context c{g, a, options, r, {}, {}, {}};
    c.nodes.reserve(g.nodes.size());
    for (const Node& n : g.nodes) c.nodes.emplace(n.id, &n);
    for (const Edge& e : g.edges) {
        if (!c.nodes.count(e.from.node) || !c.nodes.count(e.to.node)) continue;
        c.producers[e.to.node].push_back(e.from.node);
        c.consumers[e.from.node].push_back(e.to.node);
    }
    for (const LayerCost& l : r.layers) {
        const Node& n = *c.nodes.at(l.node);
        huge_activation(c, l);
        dense_after_flatten(c, n, l);
        redundant_activation(c, n);
        bias_before_norm(c, n);
        strides_skip_pixels(c, n);
        softmax_inside(c, n);
    }
    output_matches_loss(c);
    no_trainable(c);
}

}  // namespace lf::report_detail
