// layerforge-cli end to end: exit codes, help, JSON output, training and evaluation on real data.
#include <QDir>
#include <QtTest>

#include <set>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

using nlohmann::json;

namespace {

using Run = CliRun;

QString templ(const char* name) { return qEnvironmentVariable("LF_SOURCE_DIR") + "/resources/templates/" + name; }

}  // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // A copy of a template in the temp folder: training records its run beside the project.
    QString copy_of(const char* name) {
        QString path = dir_.filePath(name);
        if (!QFile::exists(path)) QFile::copy(templ(name), path);
        return path;
    }

    QString write(const QString& name, const QByteArray& text) {
        QFile f(dir_.filePath(name));
        f.open(QIODevice::WriteOnly);
        f.write(text);
        return f.fileName();
    }

private slots:
    void help_on_every_command() {
        QCOMPARE(cli({"--help"}).code, 0);
        for (const char* c : {"train", "evaluate", "info", "layers", "runs", "checkpoints", "restore"}) {
            Run r = cli({c, "--help"});
            QCOMPARE(r.code, 0);
            QVERIFY2(r.out.contains(QString("usage: layerforge-cli ") + c), qPrintable(r.out));
        }
    }
    void usage_errors_exit_2() {
        QCOMPARE(cli({}).code, 2);
        Run unknown = cli({"trian"});
        QCOMPARE(unknown.code, 2);
        QVERIFY(unknown.err.contains("unknown command 'trian'"));
        Run option = cli({"info", templ("fashion_mlp.lfproj"), "--frobnicate"});
        QCOMPARE(option.code, 2);
        QVERIFY(option.err.contains("unknown option --frobnicate"));
        Run missing = cli({"train"});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.contains("missing PROJECT"));
        QCOMPARE(cli({"train", templ("fashion_mlp.lfproj"), "--epochs", "many"}).code, 2);
    }
    void info_prints_a_keras_summary() {
        Run r = cli({"info", templ("fashion_mlp.lfproj")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("(?, 28, 28, 1)"));
        QVERIFY(r.out.contains("dense (Dense)"));
        QVERIFY(r.out.contains("78,500"));
        QVERIFY(r.out.contains("Total params: 79,510"));
        QVERIFY(r.out.contains("FLOPs"));
        json j = cli({"info", templ("fashion_functional.lfproj"), "--json"}).lines().back();
        QCOMPARE(j["valid"], true);
        QCOMPARE(j["total_params"], 158010);
        bool found_add = false;
        for (const json& l : j["layers"])
            if (l["type"] == "Add") {
                found_add = true;
                QCOMPARE(l["inputs"].size(), 2u);
                QCOMPARE(l["output_shape"], json::parse("[null, 100]"));
            }
        QVERIFY(found_add);
    }
    void info_works_on_every_template_and_estimates_training_memory() {
        for (const QString& t : QDir(templ("")).entryList({"*.lfproj"})) {
            Run r = cli({"info", templ("") + t, "--batch-size", "8", "--json"});
            QVERIFY2(r.code == 0, qPrintable(t + ": " + r.err));
            json m = r.lines().back()["memory"];
            QCOMPARE(m["batch_size"], 8);
            QVERIFY2(m["activations"].get<long long>() > 0 && m["optimizer_state"].get<long long>() > 0,
                     qPrintable(t));
        }
        // The tutorial CNN at batch 50: 48,868 activation values per image (input, conv1, pool1,
        // conv2, pool2, dense1, dense2, softmax; Flatten is a view), Adam's m and v.
        json m = cli({"info", templ("fashion_cnn.lfproj"), "--json"}).lines().back()["memory"];
        QCOMPARE(m["activations"], 48868 * 50 * 4);
        QCOMPARE(m["optimizer_state"], 2 * 3274634 * 4);
        QVERIFY(m["workspaces"].get<long long>() > 0);  // weight reorders, pooling indices, oneDNN's scratchpad
        Run text = cli({"info", templ("fashion_cnn.lfproj"), "--batch-size", "128"});
        QVERIFY2(text.out.contains("Training memory at batch size 128"), qPrintable(text.out));
        QCOMPARE(cli({"info", templ("fashion_cnn.lfproj"), "--batch-size", "0"}).code, 2);
    }
    void bad_projects_exit_2_with_clear_messages() {
        Run malformed = cli({"info", write("bad.lfproj", "{\"version\": 1, \"model\": ")});
        QCOMPARE(malformed.code, 2);
        QVERIFY2(malformed.err.contains("bad.lfproj"), qPrintable(malformed.err));
        Run version = cli({"info", write("future.lfproj", "{\"version\": 99, \"model\": {\"nodes\": []}}")});
        QCOMPARE(version.code, 2);
        QVERIFY2(version.err.contains("newer"), qPrintable(version.err));
        QCOMPARE(cli({"train", dir_.filePath("absent.lfproj")}).code, 2);

        QFile f(templ("fashion_mlp.lfproj"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        json p = json::parse(f.readAll().toStdString());
        p["model"]["edges"].push_back({{"from", "dense_1:0"}, {"to", "dense:1"}});
        QString cyclic = write("cyclic.lfproj", QByteArray::fromStdString(p.dump()));
        Run info = cli({"info", cyclic});
        QCOMPARE(info.code, 2);
        QVERIFY2(info.out.contains("cycle"), qPrintable(info.out));
        Run train = cli({"train", cyclic});
        QCOMPARE(train.code, 2);
        QVERIFY2(train.err.contains("cycle"), qPrintable(train.err));
    }
    void layers_lists_the_registry() {
        json j = cli({"layers", "--json"}).lines().back();
        std::set<std::string> types;
        for (const json& l : j["layers"]) {
            types.insert(l["type"]);
            if (l["type"] == "Dense") {
                QCOMPARE(l["params"][0]["name"], "units");
                QCOMPARE(l["params"][0]["min"], 1.0);
                QCOMPARE(l["params"][0]["required"], true);
            }
        }
        for (const char* t : {"Input", "Dense", "Flatten", "Reshape", "Activation", "ReLU", "LeakyReLU", "Sigmoid",
                              "Tanh", "Softmax", "GELU", "Dropout", "Add", "Concatenate"})
            QVERIFY2(types.count(t), t);
    }
    void train_then_evaluate_on_fashion_mnist() {
        QString weights = dir_.filePath("mlp.safetensors");
        Run r = cli({"train", copy_of("fashion_mlp.lfproj"), "--epochs", "2", "--limit-train", "3000", "--limit-test",
                     "1000", "--log-every", "20", "--weights-out", weights, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        auto lines = r.lines();
        QCOMPARE(lines.front()["event"], "run");  // recorded in the project's run store
        QCOMPARE(lines[1]["event"], "run_started");
        int steps = 0, epochs = 0;
        for (const json& l : lines) {
            if (l["event"] == "step") {
                ++steps;
                QVERIFY(l["images_per_second"].get<double>() > 0);
                QVERIFY(l["metrics"].contains("loss") && l["metrics"].contains("accuracy"));
            }
            if (l["event"] == "epoch_end") {
                ++epochs;
                QVERIFY(l["metrics"].contains("val_accuracy"));
            }
        }
        QCOMPARE(epochs, 2);
        QCOMPARE(steps, 2 * 2);  // 60 steps per epoch, logged at 20 and 40 (the 60th is the epoch line)
        const json& result = lines.back();
        QCOMPARE(result["event"], "result");
        QCOMPARE(result["status"], "finished");
        double accuracy = result["test"]["accuracy"];
        QVERIFY2(accuracy > 0.7, qPrintable(QString::number(accuracy)));
        QVERIFY(QFile::exists(weights));

        Run e = cli({"evaluate", templ("fashion_mlp.lfproj"), "--weights", weights, "--limit-test", "1000", "--json"});
        QVERIFY2(e.code == 0, qPrintable(e.err));
        json ev = e.lines().back();
        QCOMPARE(ev["samples"], 1000);
        QCOMPARE(ev["metrics"]["accuracy"].get<double>(), accuracy);
        QCOMPARE(ev["metrics"]["loss"].get<double>(), result["test"]["loss"].get<double>());
    }
    void evaluate_without_weights_says_what_to_do() {
        Run r = cli({"evaluate", templ("fashion_mlp.lfproj"), "--weights", dir_.filePath("none.safetensors")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("run `layerforge-cli train"), qPrintable(r.err));
    }
    void diverging_training_exits_1() {
        Run r = cli({"train", copy_of("fashion_mlp.lfproj"), "--epochs", "1", "--limit-train", "500", "--limit-test",
                     "100", "--learning-rate", "1e30", "--weights-out", dir_.filePath("nan.safetensors")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("NaN") || r.err.contains("infinite"), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir_.filePath("nan.safetensors")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
