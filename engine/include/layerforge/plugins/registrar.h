#pragma once
// The engine's side of plugins, Qt-free: a plugin hands its layer types, losses and metrics to
// a PluginRegistrar, which adds all of them or none. Names must be new: a clash with a built-in
// or with an earlier plugin refuses the whole plugin. The Qt plugin interface that calls this
// is plugins/sdk/layerforge/plugin.h; the loader is plugins/host/.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "layerforge/core/params.h"
#include "layerforge/layers/kernel.h"
#include "layerforge/layers/registry.h"
#include "layerforge/train/loss.h"
#include "layerforge/train/metrics.h"

namespace lf {

// Bumped whenever LayerSpec, KernelSetup, Loss, Metric or these specs change incompatibly. A
// plugin states the version it was built for in its plugin.json ("interfaceVersion").
inline constexpr int kPluginInterfaceVersion = 1;

// A plugin's layer type: the LayerSpec gives name, palette category, help, parameter schema,
// arity and shape rule; the kernel (LayerSpec::kernel once registered) computes it on the CPU. A view
// layer (spec.view, output aliasing the input) has no kernel.
struct PluginLayer {
    LayerSpec spec;
    KernelFactory kernel;
};

struct LossSpec {
    std::string type;  // as a project's training.loss names it
    std::string help;
    // Throws lf::Error (Input) for parameters it does not accept.
    std::function<std::unique_ptr<Loss>(const Params&)> make;
};

struct MetricSpec {
    std::string name;  // as a project's training.metrics names it
    std::string help;
    std::function<std::unique_ptr<Metric>()> make;
};

// What one plugin added, by name.
struct PluginRecord {
    std::string name, version, source;  // source: the file it came from
    std::vector<std::string> layers, losses, metrics;
};

class PluginRegistrar {
public:
    PluginRegistrar(std::string name, std::string version = "", std::string source = "");

    void add_layer(PluginLayer layer);
    void add_loss(LossSpec spec);
    void add_metric(MetricSpec spec);

    // Checks every name against the built-ins, the plugins registered before and each other,
    // and that each entry is complete; throws lf::Error (Input) naming the plugin and the first
    // problem, having registered nothing. Otherwise registers everything and returns the record.
    PluginRecord commit();

private:
    std::string problem() const;  // "" when commit() may register

    PluginRecord record_;
    std::vector<PluginLayer> layers_;
    std::vector<LossSpec> losses_;
    std::vector<MetricSpec> metrics_;
};

// Register plugins before building any Model: adding layer types may move the registry's specs,
// which analyses point at. The studio and the CLI load plugins first thing.

// The plugins registered so far, in order.
const std::vector<PluginRecord>& registered_plugins();
// Plugin losses and metrics by name (make_loss and make_metric fall back on these); null if none.
const LossSpec* find_plugin_loss(const std::string& type);
const MetricSpec* find_plugin_metric(const std::string& name);
std::vector<std::string> plugin_loss_types();
std::vector<std::string> plugin_metric_names();

}  // namespace lf
