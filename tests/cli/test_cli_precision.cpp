// The precision policy through layerforge-cli: --precision on train, evaluate and predict
// (refused with exit 2 and the reason on a CPU without bfloat16, simulated with oneDNN's
// DNNL_MAX_CPU_ISA), `info --precision`, the policy in the run store and `runs compare`, a resume
// that keeps it, and `export --dtype bfloat16`.
#include <QtTest>

#include <nlohmann/json.hpp>

#include "bf16_cpu.h"
#include "cli_runner.h"
#include "layerforge/core/bfloat16.h"
#include "layerforge/graph/model.h"
#include "layerforge/project/project.h"
#include "layerforge/store/run_store.h"
#include "layerforge/store/weights_file.h"

using nlohmann::json;

namespace {

constexpr const char* kReason = "no bfloat16 instructions";

QProcessEnvironment without_bf16() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("DNNL_MAX_CPU_ISA", QString::fromStdString(lf_test::kNoBf16Cap));
    return env;
}

QStringList small(QStringList args) { return args << "--limit-train" << "200" << "--limit-test" << "50"; }

// The last JSON object of a run with the given "event".
json last_event(const CliRun& r, const char* event) {
    json found;
    for (const json& j : r.lines())
        if (j.value("event", "") == event) found = j;
    return found;
}

}  // namespace

class TestCliPrecision : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString project(const QString& name) { return mlpProjectCopy(dir_, name); }
    std::string store_of(const QString& p) { return lf::RunStore::path_for_project(p.toStdString()); }

public:
    // The cases that train in bfloat16 need a CPU with it; the refusal cases run everywhere
    // (registered again as cli/test_cli_precision@no_bf16_isa).
    static void initMain() { lf_test::skip_suite_without_bf16(); }

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"))
            QFAIL("Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist)");
    }

    void unknown_policy_is_a_usage_error() {
        const QString p = project("usage");
        for (const char* command : {"train", "evaluate", "info"}) {
            const CliRun r = cli({command, p, "--precision", "bfloat16"});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("option --precision expects float32 or mixed_bfloat16 or mixed_float16, got 'bfloat16'"), qPrintable(r.err));
        }
    }

    // Exit 2 with the backend's reason, before a run is recorded or a file is read.
    void no_bf16_cpu_refuses_mixed_with_the_reason() {
        const QString p = project("refused");
        const CliRun train = cli(small({"train", p, "--precision", "mixed_bfloat16"}), without_bf16());
        QCOMPARE(train.code, 2);
        QVERIFY2(train.err.contains(kReason) && train.err.contains("mixed_bfloat16"), qPrintable(train.err));
        QVERIFY(!QFile::exists(QString::fromStdString(store_of(p))));
        // The project's own setting is refused the same way.
        lf::Project proj = lf::load_project(p.toStdString());
        proj.training.precision = lf::Precision::MixedBFloat16;
        lf::save_project(proj, p.toStdString());
        const CliRun setting = cli(small({"train", p, "--json"}), without_bf16());
        QCOMPARE(setting.code, 2);
        QVERIFY2(setting.err.contains(kReason), qPrintable(setting.err));
        QCOMPARE(last_event(setting, "error")["kind"], "input");
        // float32 still trains there: --precision overrides the project.
        QCOMPARE(cli(small({"train", p, "--epochs", "1", "--precision", "float32"}), without_bf16()).code, 0);
        for (const char* command : {"evaluate", "predict"}) {
            QStringList args = small({command, p, "--precision", "mixed_bfloat16"});
            if (QString(command) == "predict") args = QStringList{command, p, "--precision", "mixed_bfloat16",
                                                                 qEnvironmentVariable("LF_SOURCE_DIR") + "/tests/fixtures/images/gray.png"};
            const CliRun r = cli(args, without_bf16());
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(kReason), qPrintable(QString(command) + ": " + r.err));
        }
        // info reports the policy and that training would refuse it, and still gives the estimate.
        const CliRun info = cli({"info", p, "--json"}, without_bf16());
        QCOMPARE(info.code, 0);
        const json j = last_event(info, "result");
        QCOMPARE(j["precision"]["policy"], "mixed_bfloat16");
        QCOMPARE(j["precision"]["supported"], false);
        QVERIFY(j["precision"]["reason"].get<std::string>().find(kReason) != std::string::npos);
    }

    // mixed_float16 is a GPU policy: the CPU refuses it on every command that runs a plan, and
    // info says so while still estimating the memory at 2 bytes an activation.
    void the_cpu_refuses_mixed_float16_with_the_reason() {
        const QString p = project("float16");
        const CliRun train = cli(small({"train", p, "--precision", "mixed_float16"}));
        QCOMPARE(train.code, 2);
        QVERIFY2(train.err.contains("no float16 kernels") && train.err.contains("mixed_float16"), qPrintable(train.err));
        QVERIFY(!QFile::exists(QString::fromStdString(store_of(p))));
        QCOMPARE(cli(small({"train", p, "--epochs", "1"})).code, 0);  // weights to evaluate
        const CliRun evaluate = cli(small({"evaluate", p, "--precision", "mixed_float16"}));
        QCOMPARE(evaluate.code, 2);
        QVERIFY2(evaluate.err.contains("no float16 kernels"), qPrintable(evaluate.err));
        const CliRun info = cli({"info", p, "--json", "--precision", "mixed_float16"});
        QCOMPARE(info.code, 0);
        const json j = last_event(info, "result");
        QCOMPARE(j["precision"]["policy"], "mixed_float16");
        QCOMPARE(j["precision"]["supported"], false);
        const json f32 = last_event(cli({"info", p, "--json"}), "result");
        QVERIFY(j["memory"]["activations"].get<double>() < f32["memory"]["activations"].get<double>());
    }

    void info_lists_the_layers_types_and_the_estimate_under_the_policy() {
        const QString p = project("info");
        const CliRun mixed = cli({"info", p, "--precision", "mixed_bfloat16"});
        QCOMPARE(mixed.code, 0);
        QVERIFY2(mixed.out.contains("(estimate, CPU, mixed_bfloat16)"), qPrintable(mixed.out));
        QVERIFY2(mixed.out.contains("Precision: mixed_bfloat16 (--precision)"), qPrintable(mixed.out));
        QVERIFY2(mixed.out.contains(QRegularExpression("dense \\(Dense\\) +bfloat16")), qPrintable(mixed.out));
        const json a = last_event(cli({"info", p, "--json"}), "result");
        const json b = last_event(cli({"info", p, "--json", "--precision", "mixed_bfloat16"}), "result");
        QCOMPARE(a["precision"]["policy"], "float32");
        QCOMPARE(b["precision"]["supported"], true);
        int bf16 = 0;
        for (const json& l : a["precision"]["layers"]) QCOMPARE(l["compute"], "float32");
        for (const json& l : b["precision"]["layers"]) bf16 += l["compute"] == "bfloat16";
        QVERIFY(bf16 > 0);
        QVERIFY(b["memory"]["activations"].get<double>() < a["memory"]["activations"].get<double>());
        QCOMPARE(b["memory"]["weights"], a["memory"]["weights"]);
    }

    void runs_record_and_compare_the_policy() {
        const QString p = project("compare");
        QCOMPARE(cli(small({"train", p, "--epochs", "1"})).code, 0);
        const CliRun mixed = cli(small({"train", p, "--epochs", "1", "--precision", "mixed_bfloat16", "--json"}));
        QCOMPARE(mixed.code, 0);
        QCOMPARE(last_event(mixed, "result")["status"], "finished");
        QVERIFY(last_event(mixed, "result")["test"]["accuracy"].get<double>() > 0.4);  // it learned
        lf::RunStore store(store_of(p), false);
        QCOMPARE(lf::run_precision(store.run(1)), lf::Precision::Float32);
        QCOMPARE(lf::run_precision(store.run(2)), lf::Precision::MixedBFloat16);
        const CliRun text = cli({"runs", "compare", p, "1", "2"});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("precision: float32 (run 1), mixed_bfloat16 (run 2)"), qPrintable(text.out));
        QVERIFY2(text.out.contains("/settings/training/precision: \"float32\" -> \"mixed_bfloat16\""), qPrintable(text.out));
        const json j = last_event(cli({"runs", "compare", p, "1", "2", "--json"}), "compare");
        QCOMPARE(j["a"]["precision"], "float32");
        QCOMPARE(j["b"]["precision"], "mixed_bfloat16");
        QCOMPARE(last_event(cli({"runs", "list", p, "--json"}), "runs")["runs"][1]["precision"], "mixed_bfloat16");
        // The project file was not changed by the override.
        QCOMPARE(lf::load_project(p.toStdString()).training.precision, lf::Precision::Float32);
    }

    void resume_keeps_the_recorded_policy() {
        const QString p = project("resume");
        QCOMPARE(cli(small({"train", p, "--epochs", "1", "--precision", "mixed_bfloat16"})).code, 0);
        // Another policy on resume: refused before anything runs, the run untouched.
        const CliRun other = cli(small({"train", p, "--resume", "--epochs", "2", "--precision", "float32"}));
        QCOMPARE(other.code, 2);
        QVERIFY2(other.err.contains("run 1 was recorded with precision mixed_bfloat16") &&
                     other.err.contains("keeps its precision"),
                 qPrintable(other.err));
        // Without --precision it resumes in the run's policy, not the project's float32.
        const CliRun resumed = cli(small({"train", p, "--resume", "--epochs", "2"}));
        QCOMPARE(resumed.code, 0);
        QVERIFY2(resumed.out.contains("resuming in mixed_bfloat16"), qPrintable(resumed.out));
        lf::RunStore store(store_of(p), false);
        QCOMPARE(store.runs().size(), std::size_t(1));
        QCOMPARE(lf::run_precision(store.run(1)), lf::Precision::MixedBFloat16);
        QCOMPARE(store.run(1).last_epoch, std::int64_t(2));
    }

    // A float32 run resumed with --precision mixed_bfloat16 is refused the same way.
    void resume_of_a_float32_run_refuses_mixed() {
        const QString p = project("resume32");
        QCOMPARE(cli(small({"train", p, "--epochs", "1"})).code, 0);
        const CliRun r = cli(small({"train", p, "--resume", "--epochs", "2", "--precision", "mixed_bfloat16"}));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("run 1 was recorded with precision float32"), qPrintable(r.err));
    }

    void export_writes_bf16_safetensors_on_request() {
        const QString p = project("export");
        QCOMPARE(cli(small({"train", p, "--epochs", "1"})).code, 0);
        const QString out = dir_.filePath("export-bf16");
        const CliRun r = cli({"export", p, "--format", "safetensors", "--dtype", "bfloat16", "--out", out, "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(last_event(r, "exported")["dtype"], "bfloat16");
        lf::Model trained(lf::load_project(p.toStdString()).graph), back(trained.graph());
        lf::load_weights(trained, dir_.filePath("export.weights.safetensors").toStdString());
        lf::load_weights(back, (out + "/model.safetensors").toStdString());  // the project's reader
        for (std::size_t i = 0; i < trained.weights().size(); ++i)
            QCOMPARE(back.weights()[i], lf::from_bfloat16(lf::to_bfloat16(trained.weights()[i])));
        QFile f(out + "/model.safetensors");
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("\"dtype\":\"BF16\""));
        const CliRun onnx = cli({"export", p, "--format", "onnx", "--dtype", "bfloat16", "--out", dir_.filePath("x")});
        QCOMPARE(onnx.code, 2);
        QVERIFY2(onnx.err.contains("safetensors export only"), qPrintable(onnx.err));
        QCOMPARE(cli({"export", p, "--format", "safetensors", "--dtype", "half", "--out", dir_.filePath("y")}).code, 2);
    }
};

QTEST_MAIN(TestCliPrecision)
#include "test_cli_precision.moc"
