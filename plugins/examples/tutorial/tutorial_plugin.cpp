// The Qt plugin object: hands the tutorial's layer, loss and metric to the host.
#include <QObject>

#include "layerforge/plugin.h"
#include "tutorial.h"

class TutorialPlugin : public QObject, public lf::Plugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID LF_PLUGIN_IID FILE "plugin.json")
    Q_INTERFACES(lf::Plugin)

public:
    void registerInto(lf::PluginRegistrar& r) override {
        r.add_layer(tutorial::linear_layer());
        r.add_loss(tutorial::mean_squared_error_spec());
        r.add_metric(tutorial::sparse_categorical_accuracy_spec());
    }
};

#include "tutorial_plugin.moc"
