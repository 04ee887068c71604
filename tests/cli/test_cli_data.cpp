// layerforge-cli dataset inspect / import-idx, train --dataset, predict: end to end, including
// the same accuracy from an imported Fashion-MNIST folder as from the IDX files.
#include <QtTest>

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

struct Run {
    int code = -1;
    QString out, err;
    json last() const {  // the final JSON line
        const QStringList lines = out.split('\n', Qt::SkipEmptyParts);
        return lines.isEmpty() ? json() : json::parse(lines.back().toStdString());
    }
};

Run cli(const QStringList& args, int timeout_ms = 240000) {
    QProcess p;
    p.start(qEnvironmentVariable("LF_CLI"), args);
    if (!p.waitForFinished(timeout_ms)) p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

QString templ(const char* name) { return qEnvironmentVariable("LF_SOURCE_DIR") + "/resources/templates/" + name; }

}  // namespace

class TestCliData : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void import_inspect_train_predict() {
        const QString folder = dir_.filePath("fm");
        Run imp = cli({"dataset", "import-idx", "--out", folder, "--limit-train", "3000", "--limit-test", "1000", "--json"});
        QCOMPARE(imp.code, 0);
        QCOMPARE(imp.last()["train"], 3000);
        QCOMPARE(imp.last()["classes"][0], "0_T-shirt-top");

        QFile(folder + "/train/3_Dress/bad.png").open(QIODevice::WriteOnly);  // zero bytes
        Run ins = cli({"dataset", "inspect", folder, "--json"});
        QCOMPARE(ins.code, 0);
        const json r = ins.last();
        QCOMPARE(r["classes"].size(), 10u);
        QCOMPARE(r["total_usable"], 4000);
        QCOMPARE(r["problem_count"], 1);
        QVERIFY(r["problems"][0]["path"].get<std::string>().find("bad.png") != std::string::npos);
        Run text = cli({"dataset", "inspect", folder});
        QVERIFY2(text.out.contains("9_Ankle_boot") && text.out.contains("bad.png: the image file is empty (0 bytes)"), qPrintable(text.out));

        // Same samples, same model and seed: the folder path must learn as well as the IDX path.
        const QString proj = dir_.filePath("mlp.lfproj");
        QFile::copy(templ("fashion_mlp.lfproj"), proj);
        Run idx = cli({"train", proj, "--epochs", "2", "--limit-train", "3000", "--limit-test", "1000", "--json"});
        QCOMPARE(idx.code, 0);
        Run img = cli({"train", proj, "--epochs", "2", "--dataset", folder, "--workers", "1", "--json"});
        QVERIFY2(img.code == 0, qPrintable(img.err));
        const double a_idx = idx.last()["test"]["accuracy"], a_img = img.last()["test"]["accuracy"];
        QCOMPARE(img.last()["test_samples"], 1000);
        QVERIFY2(std::abs(a_idx - a_img) < 0.03 && a_img > 0.7, qPrintable(QString("IDX %1, folder %2").arg(a_idx).arg(a_img)));

        Run pred = cli({"predict", proj, folder + "/test/1_Trouser/00002.png", dir_.filePath("nope.png"), "--json"});
        QCOMPARE(pred.code, 2);  // one unreadable image
        bool predicted = false;
        for (const QString& l : pred.out.split('\n', Qt::SkipEmptyParts)) {
            const json j = json::parse(l.toStdString());
            if (j["event"] == "prediction") {
                predicted = true;
                double sum = 0;
                for (const auto& [k, v] : j["probabilities"].items()) sum += v.get<double>();
                QVERIFY(std::abs(sum - 1) < 1e-3);
                QVERIFY(j["probabilities"].contains("1_Trouser"));
            }
        }
        QVERIFY(predicted);
        QVERIFY(pred.err.contains("nope.png"));
    }
    void bad_dataset_options_exit_2() {
        QCOMPARE(cli({"dataset", "inspect", dir_.filePath("absent")}).code, 2);
        QCOMPARE(cli({"dataset", "frobnicate"}).code, 2);
        QCOMPARE(cli({"dataset", "import-idx"}).code, 2);
        // A copy: the run store is opened before the data, beside the project, never in the source tree.
        const QString proj = dir_.filePath("bad_dataset.lfproj");
        QVERIFY(QFile::copy(templ("fashion_mlp.lfproj"), proj));
        Run r = cli({"train", proj, "--dataset", dir_.filePath("absent"), "--epochs", "1"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("absent"));
    }
};

QTEST_MAIN(TestCliData)
#include "test_cli_data.moc"
