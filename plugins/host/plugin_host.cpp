#include "plugin_host.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QLibrary>
#include <QPluginLoader>
#include <QStandardPaths>

#include "layerforge/plugin.h"

namespace lf::plugins {

namespace {

// The folder of the running executable; the CLI has no QCoreApplication to ask.
QString executableDir() {
    if (QCoreApplication::instance()) return QCoreApplication::applicationDirPath();
    return QFileInfo(QFileInfo(QStringLiteral("/proc/self/exe")).canonicalFilePath()).absolutePath();
}

// Why the metadata rules the plugin out before any of its code runs, or "".
QString metadataProblem(const QJsonObject& meta) {
    const QString iid = meta.value("IID").toString();
    const QJsonObject data = meta.value("MetaData").toObject();
    const int version = data.value("interfaceVersion").toInt(-1);
    if (version != kPluginInterfaceVersion) {
        if (version < 0 && !iid.startsWith("org.layerforge.Plugin/"))
            return QStringLiteral("not a Layerforge plugin (its interface id is '%1')").arg(iid);
        return QStringLiteral("built for plugin interface version %1; this Layerforge supports version %2")
            .arg(version < 0 ? QStringLiteral("(none given)") : QString::number(version))
            .arg(kPluginInterfaceVersion);
    }
    if (iid != QStringLiteral(LF_PLUGIN_IID))
        return QStringLiteral("its interface id '%1' is not '%2'").arg(iid, LF_PLUGIN_IID);
    if (data.value("name").toString().isEmpty()) return QStringLiteral("its plugin.json gives no \"name\"");
    return {};
}

}  // namespace

PluginHost& PluginHost::instance() {
    static PluginHost host;
    return host;
}

QStringList PluginHost::standardDirs() {
    QStringList dirs{executableDir() + "/../lib/layerforge/plugins",
                     QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + "/layerforge/plugins"};
    for (const QString& d : qEnvironmentVariable("LF_PLUGIN_PATH").split(QDir::listSeparator(), Qt::SkipEmptyParts))
        dirs << d;
    return dirs;
}

void PluginHost::loadDirs(const QStringList& dirs) {
    for (const QString& d : dirs) {
        const QString canonical = QFileInfo(d).canonicalFilePath();
        if (canonical.isEmpty() || scanned_.contains(canonical)) continue;  // missing, or read already
        scanned_ << canonical;
        const QDir dir(canonical);
        for (const QString& name : dir.entryList(QDir::Files, QDir::Name))
            if (QLibrary::isLibrary(name)) loadFile(dir.filePath(name));
    }
}

bool PluginHost::refuse(const QString& file, const QString& reason) {
    refused_.append({file, reason});
    qWarning("Layerforge: plugin %s refused: %s", qPrintable(file), qPrintable(reason));
    return false;
}

bool PluginHost::loadFile(const QString& path) {
    QPluginLoader loader(path);
    // Every symbol resolved now: a plugin needing what this executable lacks fails here, cleanly.
    loader.setLoadHints(QLibrary::ResolveAllSymbolsHint);
    const QJsonObject meta = loader.metaData();
    if (meta.isEmpty()) return refuse(path, QStringLiteral("not a Qt plugin (%1)").arg(loader.errorString()));
    if (QString why = metadataProblem(meta); !why.isEmpty()) return refuse(path, why);
    const QJsonObject data = meta.value("MetaData").toObject();
    const QString name = data.value("name").toString();
    for (const LoadedPlugin& p : loaded_)
        if (QString::fromStdString(p.record.name) == name)
            return refuse(path, QStringLiteral("a plugin named '%1' is already loaded from %2").arg(name, p.file));

    auto* plugin = qobject_cast<lf::Plugin*>(loader.instance());
    if (!plugin) {
        QString error = loader.isLoaded() ? QStringLiteral("it does not implement lf::Plugin") : loader.errorString();
        loader.unload();
        return refuse(path, QStringLiteral("could not be loaded: %1").arg(error));
    }
    QString failure;
    {
        PluginRegistrar registrar(name.toStdString(), data.value("version").toString().toStdString(), path.toStdString());
        try {
            plugin->registerInto(registrar);
            loaded_.append({path, data.value("description").toString(), registrar.commit()});
            return true;
        } catch (const std::exception& e) {
            failure = QString::fromUtf8(e.what());
        }
    }  // the registrar, holding the plugin's functions, is gone before the code is unloaded
    loader.unload();
    return refuse(path, failure);
}

PluginHost& loadPlugins(const QStringList& extraDirs) {
    PluginHost& host = PluginHost::instance();
    host.loadDirs(PluginHost::standardDirs() + extraDirs);
    freeze_registries();  // start-up ends here: the tables the studio and the CLI read are final
    return host;
}

}  // namespace lf::plugins
