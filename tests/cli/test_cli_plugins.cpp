// layerforge-cli with plugins: --plugin-dir and LF_PLUGIN_PATH, `plugins` listing what each
// plugin added and what was refused, `layers` showing plugin layers, and training a project
// whose model and loss and metric come from plugins.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "lf_test_util.h"

using Json = nlohmann::json;

namespace {

struct Run {
    int code = -1;
    QString out, err;
    Json result;  // the last JSON line whose event is "result"
};

// Runs the CLI with a private XDG_DATA_HOME (no user plugins) plus `env`.
Run cli(const QStringList& args, const QStringList& env = {}) {
    static QTemporaryDir home;
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.insert("XDG_DATA_HOME", home.path());
    e.remove("LF_PLUGIN_PATH");
    for (const QString& kv : env) e.insert(kv.section('=', 0, 0), kv.section('=', 1));
    p.setProcessEnvironment(e);
    p.start(qEnvironmentVariable("LF_CLI"), args);
    if (!p.waitForFinished(120000)) p.kill();
    Run r{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
    for (const QString& l : r.out.split('\n', Qt::SkipEmptyParts)) {
        Json j = Json::parse(l.toStdString(), nullptr, false);
        if (!j.is_discarded() && j.value("event", "") == "result") r.result = j;
    }
    return r;
}

QString examples() { return qEnvironmentVariable("LF_PLUGIN_BUILD_DIR"); }

const Json* plugin(const Json& result, const std::string& name) {
    for (const Json& p : result["plugins"])
        if (p["name"] == name) return &p;
    return nullptr;
}

// Fashion-MNIST through Dense -> Swish -> LinearLayer -> Softmax, trained with the tutorial's
// loss and metric: every custom piece comes from a plugin.
const char* kPluginProject = R"({
  "format": "layerforge-project", "version": 1, "name": "plugin_mlp",
  "model": {
    "nodes": [
      {"id": "input", "type": "Input", "name": "input", "params": {"shape": [28, 28, 1]}, "position": [0, 0]},
      {"id": "flatten", "type": "Flatten", "name": "flatten", "params": {}, "position": [200, 0]},
      {"id": "dense", "type": "Dense", "name": "dense", "params": {"units": 32}, "position": [400, 0]},
      {"id": "swish", "type": "Swish", "name": "swish", "params": {}, "position": [600, 0]},
      {"id": "linear", "type": "LinearLayer", "name": "linear", "params": {"units": 10}, "position": [800, 0]},
      {"id": "softmax", "type": "Softmax", "name": "softmax", "params": {}, "position": [1000, 0]}
    ],
    "edges": [
      {"from": "input:0", "to": "flatten:0"}, {"from": "flatten:0", "to": "dense:0"},
      {"from": "dense:0", "to": "swish:0"}, {"from": "swish:0", "to": "linear:0"},
      {"from": "linear:0", "to": "softmax:0"}
    ]
  },
  "dataset": {"kind": "fashion-mnist", "path": "", "validation": "test", "validation_split": 0.0,
              "limit_train": 200, "limit_test": 100},
  "training": {
    "optimizer": {"type": "Adam", "learning_rate": 0.001},
    "loss": {"type": "TutorialMeanSquaredError"},
    "metrics": ["SparseCategoricalAccuracy"],
    "schedule": {"type": "constant"},
    "batch_size": 50, "epochs": 1, "seed": 1, "shuffle": true, "callbacks": []
  }
})";

}  // namespace

class TestCliPlugins : public QObject {
    Q_OBJECT

private slots:
    void plugins_lists_what_each_plugin_added() {
        const Run r = cli({"plugins", "--json", "--plugin-dir", examples()});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.result["plugins"].size(), std::size_t(2));
        const Json* tutorial = plugin(r.result, "Tutorial");
        QVERIFY(tutorial);
        QCOMPARE((*tutorial)["layers"], Json::array({"LinearLayer"}));
        QCOMPARE((*tutorial)["losses"], Json::array({"TutorialMeanSquaredError"}));
        QCOMPARE((*tutorial)["metrics"], Json::array({"SparseCategoricalAccuracy"}));
        QCOMPARE((*plugin(r.result, "Swish"))["layers"], Json::array({"Swish"}));
        QVERIFY(r.result["refused"].empty());

        const Run text = cli({"plugins", "--plugin-dir=" + examples()});
        QVERIFY(text.out.contains("Tutorial 1.0"));
        QVERIFY(text.out.contains("layers: LinearLayer"));
        QVERIFY(text.out.contains("metrics: SparseCategoricalAccuracy"));
    }

    void no_plugins_without_a_folder() {
        const Run r = cli({"plugins", "--json"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.result["plugins"].empty());
        QVERIFY(cli({"plugins"}).out.contains("no plugins loaded"));
    }

    void layers_shows_plugin_layers_with_their_schema() {
        const Run r = cli({"layers", "--json", "--plugin-dir", examples()});
        QCOMPARE(r.code, 0);
        const Json* linear = nullptr;
        for (const Json& l : r.result["layers"])
            if (l["type"] == "LinearLayer") linear = &l;
        QVERIFY(linear);
        QCOMPARE((*linear)["category"], Json("Tutorial"));
        QCOMPARE((*linear)["plugin"], Json("Tutorial"));
        QCOMPARE((*linear)["params"][0]["name"], Json("units"));
        QVERIFY(cli({"layers", "--plugin-dir", examples()}).out.contains("Swish  [Extra activations, 1 input, plugin Swish]"));
        QVERIFY(!cli({"layers"}).out.contains("LinearLayer"));
    }

    void refused_plugins_are_reported_and_the_command_still_runs() {
        const QString clash = qEnvironmentVariable("LF_FIXTURE_PLUGIN_DIR") + "/clash";
        const QString wrong = qEnvironmentVariable("LF_FIXTURE_PLUGIN_DIR") + "/wrong_version";
        const Run r = cli({"plugins", "--json", "--plugin-dir", examples()}, {"LF_PLUGIN_PATH=" + clash + ":" + wrong});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.result["plugins"].size(), std::size_t(2));
        QCOMPARE(r.result["refused"].size(), std::size_t(2));
        const std::string reasons = r.result["refused"].dump();
        QVERIFY2(reasons.find("layer type 'Dense' is already registered by a built-in layer") != std::string::npos, reasons.c_str());
        QVERIFY2(reasons.find("built for plugin interface version 2") != std::string::npos, reasons.c_str());
        QVERIFY2(r.err.contains("refused"), qPrintable(r.err));
    }

    void a_missing_plugin_folder_is_a_usage_error() {
        const Run r = cli({"plugins", "--plugin-dir", "/nonexistent/plugins"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("'/nonexistent/plugins' is not a folder"));
        QCOMPARE(cli({"plugins", "--plugin-dir"}).code, 2);
    }

    void trains_a_project_built_from_plugins() {
        QTemporaryDir dir;
        const QString project = dir.filePath("plugin_mlp.lfproj");
        QVERIFY(writeFile(project, kPluginProject));

        const Run without = cli({"train", project});
        QCOMPARE(without.code, 2);
        QVERIFY2(without.err.contains("LinearLayer"), qPrintable(without.err));

        const Run r = cli({"train", project, "--json", "--plugin-dir", examples()});
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out.right(2000)));
        QVERIFY(r.out.contains("SparseCategoricalAccuracy"));
        QVERIFY(QFile::exists(dir.filePath("plugin_mlp.weights.safetensors")));
    }
};

QTEST_GUILESS_MAIN(TestCliPlugins)
#include "test_cli_plugins.moc"
