#pragma once
// Loads Layerforge plugins (Qt plugins implementing lf::Plugin) into the engine's registries.
// QtCore only, shared by the studio and the CLI. A plugin that is not one of ours, was built
// for another interface version, fails to load or adds a name that exists already is refused:
// the reason goes to the log (qWarning) and to refused(); nothing of it is registered.
// Loaded plugins stay loaded until the process exits (the registries point into their code).
#include <QList>
#include <QString>
#include <QStringList>

#include "layerforge/plugins/registrar.h"

namespace lf::plugins {

struct LoadedPlugin {
    QString file;
    QString description;
    PluginRecord record;  // name, version and what it added
};

struct RefusedPlugin {
    QString file;
    QString reason;
};

class PluginHost {
public:
    static PluginHost& instance();

    // Where plugins are looked for, in order: the install's plugin folder
    // (<bin>/../lib/layerforge/plugins), $XDG_DATA_HOME/layerforge/plugins (usually
    // ~/.local/share/layerforge/plugins), then each folder of $LF_PLUGIN_PATH (':'-separated).
    static QStringList standardDirs();

    // Loads every library file of each folder in name order; missing folders are skipped.
    void loadDirs(const QStringList& dirs);
    // False when the plugin was refused (see refused()).
    bool loadFile(const QString& path);

    const QList<LoadedPlugin>& loaded() const { return loaded_; }
    const QList<RefusedPlugin>& refused() const { return refused_; }
    const QStringList& searchedDirs() const { return scanned_; }  // the folders that existed

private:
    bool refuse(const QString& file, const QString& reason);

    QList<LoadedPlugin> loaded_;
    QList<RefusedPlugin> refused_;
    QStringList scanned_;  // canonical folders already loaded, so no folder is read twice
};

// The startup call of the studio and the CLI: standardDirs() and then `extraDirs`
// (--plugin-dir), then freeze_registries(). Returns the host for reporting.
PluginHost& loadPlugins(const QStringList& extraDirs = {});

}  // namespace lf::plugins
