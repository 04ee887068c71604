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

// The plugins registered so far, in order.
const std::vector<PluginRecord>& registered_plugins();

// Ends start-up: the layer, loss and metric registries take no more entries, so every thread
// reads them without a lock; a later commit() is refused. The studio and the CLI call it
// (through plugins::loadPlugins) once their plugins are loaded, before any model is built.
void freeze_registries();
bool registries_frozen();

}  // namespace lf
