// The plugin loader: the example plugins load and register into the engine's registries;
// plugins built for another interface version, that fail to load, that are no plugin at all,
// or that add a clashing name are refused with a message, and nothing of them is registered.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

#include "layerforge/layers/registry.h"
#include "lf_test_util.h"
#include "plugin_host.h"

using lf::plugins::PluginHost;

namespace {

QString exampleDir() { return qEnvironmentVariable("LF_PLUGIN_BUILD_DIR"); }
QString fixtureDir(const QString& name) { return qEnvironmentVariable("LF_FIXTURE_PLUGIN_DIR") + "/" + name; }

// The one library file in `dir`.
QString libraryIn(const QString& dir) {
    const QStringList files = QDir(dir).entryList({"*.so"}, QDir::Files);
    return files.size() == 1 ? QDir(dir).filePath(files[0]) : QString();
}

// The reason `file` was refused, or "" when it was not.
QString refusal(const PluginHost& host, const QString& file) {
    for (const auto& r : host.refused())
        if (r.file == file) return r.reason;
    return {};
}

bool registered(const std::string& type) { return lf::LayerRegistry::instance().find(type) != nullptr; }

}  // namespace

class TestPluginLoader : public QObject {
    Q_OBJECT
    PluginHost host;  // a fresh host per test class; the engine registries are process-wide

private slots:
    void initTestCase() {
        QVERIFY2(QDir(exampleDir()).exists(), "LF_PLUGIN_BUILD_DIR must name the built example plugins");
        QVERIFY(!libraryIn(fixtureDir("clash")).isEmpty());
    }

    void loads_the_example_plugins() {
        host.loadDirs({exampleDir()});
        QCOMPARE(host.loaded().size(), 2);
        QVERIFY(host.refused().isEmpty());
        QStringList names;
        for (const auto& p : host.loaded()) names << QString::fromStdString(p.record.name);
        names.sort();
        QCOMPARE(names, (QStringList{"Swish", "Tutorial"}));
        const auto& tutorial = *std::find_if(host.loaded().begin(), host.loaded().end(),
                                             [](const auto& p) { return p.record.name == "Tutorial"; });
        QCOMPARE(tutorial.record.layers, std::vector<std::string>{"LinearLayer"});
        QCOMPARE(tutorial.record.losses, std::vector<std::string>{"TutorialMeanSquaredError"});
        QCOMPARE(tutorial.record.metrics, std::vector<std::string>{"SparseCategoricalAccuracy"});
        QCOMPARE(tutorial.record.version, std::string("1.0"));
        QVERIFY(tutorial.description.contains("LinearLayer"));
        QCOMPARE(QFileInfo(QString::fromStdString(tutorial.record.source)).absolutePath(), QDir(exampleDir()).absolutePath());

        const lf::LayerSpec* linear = lf::LayerRegistry::instance().find("LinearLayer");
        QVERIFY(linear);
        QCOMPARE(linear->category, std::string("Tutorial"));
        QCOMPARE(linear->params.at(0).name, std::string("units"));
        const lf::LayerSpec* swish = lf::LayerRegistry::instance().find("Swish");
        QVERIFY(swish);
        QCOMPARE(swish->category, std::string("Extra activations"));
        QVERIFY(lf::make_loss("TutorialMeanSquaredError"));
        QVERIFY(lf::make_metric("SparseCategoricalAccuracy"));
    }

    void a_folder_is_read_once_and_a_second_copy_is_refused() {
        const int before = host.loaded().size();
        host.loadDirs({exampleDir()});
        QCOMPARE(host.loaded().size(), before);
        QVERIFY(host.refused().isEmpty());

        QTemporaryDir copy;
        const QString original = QDir(exampleDir()).filePath("liblf_swish_plugin.so");
        const QString duplicate = copy.filePath("liblf_swish_plugin.so");
        QVERIFY(QFile::copy(original, duplicate));
        QVERIFY(!host.loadFile(duplicate));
        QVERIFY2(refusal(host, duplicate).contains("a plugin named 'Swish' is already loaded"), qPrintable(refusal(host, duplicate)));
    }

    void refuses_another_interface_version_without_running_it() {
        const QString file = libraryIn(fixtureDir("wrong_version"));
        QVERIFY(!host.loadFile(file));  // its registerInto() would abort the test
        QVERIFY2(refusal(host, file).contains("built for plugin interface version 2; this Layerforge supports version 1"),
                 qPrintable(refusal(host, file)));
    }

    void refuses_a_clashing_name_and_registers_nothing_of_it() {
        const QString file = libraryIn(fixtureDir("clash"));
        QVERIFY(!host.loadFile(file));
        QVERIFY2(refusal(host, file).contains("layer type 'Dense' is already registered by a built-in layer"),
                 qPrintable(refusal(host, file)));
        QVERIFY(!registered("ClashFreshLayer"));
        for (const auto& r : lf::registered_plugins()) QVERIFY(r.name != "Clash");
    }

    void refuses_one_that_fails_to_load() {
        const QString file = libraryIn(fixtureDir("unresolved"));
        QVERIFY(!host.loadFile(file));
        QVERIFY2(refusal(host, file).contains("could not be loaded") &&
                     refusal(host, file).contains("lf_fixture_symbol_nobody_defines"),
                 qPrintable(refusal(host, file)));
    }

    void refuses_a_file_that_is_no_plugin() {
        QTemporaryDir dir;
        const QString junk = dir.filePath("libjunk.so");
        QVERIFY(writeFile(junk, "this is not a shared library\n"));
        QVERIFY(!host.loadFile(junk));
        QVERIFY2(refusal(host, junk).startsWith("not a Qt plugin"), qPrintable(refusal(host, junk)));
    }

    void a_folder_with_bad_plugins_still_loads_the_good_ones() {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(libraryIn(fixtureDir("clash")), dir.filePath("liba_clash.so")));
        QVERIFY(QFile::copy(libraryIn(fixtureDir("wrong_version")), dir.filePath("libb_wrong.so")));
        PluginHost fresh;  // the tutorial plugin is registered already: a fresh host refuses its copy as a clash
        QVERIFY(QFile::copy(QDir(exampleDir()).filePath("liblf_tutorial_plugin.so"), dir.filePath("libc_tutorial.so")));
        fresh.loadDirs({dir.path()});
        QCOMPARE(fresh.refused().size(), 3);
        QVERIFY(fresh.loaded().isEmpty());
        QVERIFY(refusal(fresh, dir.filePath("libc_tutorial.so")).contains("'LinearLayer' is already registered by plugin 'Tutorial'"));
    }

    void standard_dirs_follow_the_install_the_user_and_lf_plugin_path() {
        qputenv("LF_PLUGIN_PATH", "/opt/a:/opt/b");
        const QStringList dirs = PluginHost::standardDirs();
        qunsetenv("LF_PLUGIN_PATH");
        QCOMPARE(dirs.size(), 4);
        QVERIFY(dirs[0].endsWith("/../lib/layerforge/plugins"));
        QVERIFY(dirs[1].endsWith("/layerforge/plugins"));
        QCOMPARE(dirs.mid(2), (QStringList{"/opt/a", "/opt/b"}));
    }
};

QTEST_APPLESS_MAIN(TestPluginLoader)
#include "test_plugin_loader.moc"
