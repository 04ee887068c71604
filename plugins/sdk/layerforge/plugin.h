#pragma once
// The Layerforge plugin SDK. A plugin is a Qt plugin: a QObject that implements lf::Plugin,
// declared with
//     Q_PLUGIN_METADATA(IID LF_PLUGIN_IID FILE "plugin.json")
//     Q_INTERFACES(lf::Plugin)
// where plugin.json holds {"name", "version", "description", "interfaceVersion"}. The host
// reads the metadata first and refuses a plugin whose interfaceVersion is not
// lf::kPluginInterfaceVersion, before running any of its code. Plugins link Qt6::Core only:
// the engine symbols they use (param_int(), Shape::elements(), ...) come from the host
// executable, which exports them. See plugins/examples/ for complete plugins.
#include <QtPlugin>

#include "layerforge/plugins/registrar.h"

namespace lf {

class Plugin {
public:
    virtual ~Plugin() = default;
    // Adds the plugin's layer types, losses and metrics; the host commits them afterwards.
    virtual void registerInto(PluginRegistrar& registrar) = 0;
};

}  // namespace lf

// The interface id carries the interface version too, so a plugin built against another
// version fails qobject_cast even if its metadata lies.
#define LF_PLUGIN_IID "org.layerforge.Plugin/1"
Q_DECLARE_INTERFACE(lf::Plugin, LF_PLUGIN_IID)
