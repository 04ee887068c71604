// Plugin registration: validate everything first, then add it all, so a refused plugin leaves
// no trace in the registries.
#include "layerforge/plugins/registrar.h"

#include <algorithm>

#include "layerforge/core/error.h"

namespace lf {

namespace {

std::vector<PluginRecord>& records() {
    static std::vector<PluginRecord> r;
    return r;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

// "plugin 'Tutorial'" when a registered plugin added `name` to the list `field` picks; else "".
std::string plugin_owner(const std::string& name, std::vector<std::string> PluginRecord::*field) {
    for (const PluginRecord& r : records())
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
    if (registries_frozen()) return "plugins must be loaded at start-up, before the registries are frozen";
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
    for (auto& [s, kernel] : layers_) {
        record_.layers.push_back(s.type);
        s.kernel = std::move(kernel);
        LayerRegistry::instance().add(std::move(s));
    }
    for (LossSpec& s : losses_) {
        record_.losses.push_back(s.type);
        lf::add_loss(std::move(s));  // train's table, not this registrar's add_loss
    }
    for (MetricSpec& s : metrics_) {
        record_.metrics.push_back(s.name);
        lf::add_metric(std::move(s));
    }
    layers_.clear();
    losses_.clear();
    metrics_.clear();
    records().push_back(record_);
    return records().back();
}

const std::vector<PluginRecord>& registered_plugins() { return records(); }

void freeze_registries() {
    LayerRegistry::instance().freeze();
    freeze_losses();
    freeze_metrics();
}

bool registries_frozen() { return LayerRegistry::instance().frozen() || losses_frozen() || metrics_frozen(); }

}  // namespace lf
