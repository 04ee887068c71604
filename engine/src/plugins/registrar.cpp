// Plugin registration: validate everything first, then add it all, so a refused plugin leaves
// no trace in the registries.
#include "layerforge/plugins/registrar.h"

#include <algorithm>
#include <deque>

#include "layerforge/core/error.h"

namespace lf {

namespace {

struct PluginTables {
    std::vector<PluginRecord> records;
    std::deque<LossSpec> losses;  // deques: find_* pointers stay valid as plugins are added
    std::deque<MetricSpec> metrics;
};

PluginTables& tables() {
    static PluginTables t;
    return t;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

// "plugin 'Tutorial'" when a registered plugin added `name` to the list `field` picks; else "".
std::string plugin_owner(const std::string& name, std::vector<std::string> PluginRecord::*field) {
    for (const PluginRecord& r : tables().records)
        if (contains(r.*field, name)) return "plugin '" + r.name + "'";
    return "";
}

bool metric_exists(const std::string& name) {
    try {
        make_metric(name);  // also resolves patterns such as top3_accuracy
        return true;
    } catch (const Error&) {
        return false;
    }
}

// The first name that appears twice in `names`, or "".
std::string first_repeat(std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    auto it = std::adjacent_find(names.begin(), names.end());
    return it == names.end() ? "" : *it;
}

}  // namespace

PluginRegistrar::PluginRegistrar(std::string name, std::string version, std::string source) {
    record_.name = std::move(name);
    record_.version = std::move(version);
    record_.source = std::move(source);
}

void PluginRegistrar::add_layer(PluginLayer layer) { layers_.push_back(std::move(layer)); }
void PluginRegistrar::add_loss(LossSpec spec) { losses_.push_back(std::move(spec)); }
void PluginRegistrar::add_metric(MetricSpec spec) { metrics_.push_back(std::move(spec)); }

std::string PluginRegistrar::problem() const {
    std::vector<std::string> layer_names, loss_names, metric_names_;
    for (const auto& [s, kernel] : layers_) {
        if (s.type.empty()) return "a layer type has no name";
        if (!s.infer) return "layer type '" + s.type + "' has no shape rule (infer)";
        if (!kernel && !s.view) return "layer type '" + s.type + "' has no CPU kernel";
        if (LayerRegistry::instance().find(s.type)) {
            std::string owner = plugin_owner(s.type, &PluginRecord::layers);
            return "layer type '" + s.type + "' is already registered by " + (owner.empty() ? "a built-in layer" : owner);
        }
        layer_names.push_back(s.type);
    }
    for (const LossSpec& s : losses_) {
        if (s.type.empty() || !s.make) return "loss '" + s.type + "' has no name or no factory";
        if (contains(loss_types(), s.type)) {
            std::string owner = plugin_owner(s.type, &PluginRecord::losses);
            return "loss '" + s.type + "' is already registered by " + (owner.empty() ? "a built-in loss" : owner);
        }
        loss_names.push_back(s.type);
    }
    for (const MetricSpec& s : metrics_) {
        if (s.name.empty() || !s.make) return "metric '" + s.name + "' has no name or no factory";
        if (metric_exists(s.name)) {
            std::string owner = plugin_owner(s.name, &PluginRecord::metrics);
            return "metric '" + s.name + "' is already registered by " + (owner.empty() ? "a built-in metric" : owner);
        }
        metric_names_.push_back(s.name);
    }
    if (auto d = first_repeat(layer_names); !d.empty()) return "layer type '" + d + "' is added twice";
    if (auto d = first_repeat(loss_names); !d.empty()) return "loss '" + d + "' is added twice";
    if (auto d = first_repeat(metric_names_); !d.empty()) return "metric '" + d + "' is added twice";
    return "";
}

PluginRecord PluginRegistrar::commit() {
    if (std::string p = problem(); !p.empty()) throw input_error("plugin '" + record_.name + "': " + p);
    PluginTables& t = tables();
    for (auto& [s, kernel] : layers_) {
        record_.layers.push_back(s.type);
        s.kernel = std::move(kernel);
        LayerRegistry::instance().add(std::move(s));
    }
    for (LossSpec& s : losses_) {
        record_.losses.push_back(s.type);
        t.losses.push_back(std::move(s));
    }
    for (MetricSpec& s : metrics_) {
        record_.metrics.push_back(s.name);
        t.metrics.push_back(std::move(s));
    }
    layers_.clear();
    losses_.clear();
    metrics_.clear();
    t.records.push_back(record_);
    return t.records.back();
}

const std::vector<PluginRecord>& registered_plugins() { return tables().records; }

const LossSpec* find_plugin_loss(const std::string& type) {
    for (const LossSpec& s : tables().losses)
        if (s.type == type) return &s;
    return nullptr;
}

const MetricSpec* find_plugin_metric(const std::string& name) {
    for (const MetricSpec& s : tables().metrics)
        if (s.name == name) return &s;
    return nullptr;
}

std::vector<std::string> plugin_loss_types() {
    std::vector<std::string> out;
    for (const LossSpec& s : tables().losses) out.push_back(s.type);
    return out;
}

std::vector<std::string> plugin_metric_names() {
    std::vector<std::string> out;
    for (const MetricSpec& s : tables().metrics) out.push_back(s.name);
    return out;
}

}  // namespace lf
