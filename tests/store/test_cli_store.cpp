// The run store through layerforge-cli: every run recorded, resume equivalent to an
// uninterrupted run, runs list / compare / export-csv, checkpoints, restore, evaluate
// --checkpoint, and a crash test that SIGKILLs training at random moments.
#include <QtTest>

#include <random>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "layerforge/project/project.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/run_store.h"
#include "layerforge/train/optimizer.h"

using nlohmann::json;

namespace {

using Run = CliRun;

QByteArray read(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// (step, split, name, value) of every recorded metric but the test split.
std::vector<std::tuple<std::int64_t, std::string, std::string, double>> curve(const std::string& store, std::int64_t run) {
    lf::RunStore s(store, false);
    std::vector<std::tuple<std::int64_t, std::string, std::string, double>> out;
    for (const lf::MetricRow& r : s.metrics(run))
        if (r.split != "test") out.emplace_back(r.step, r.split, r.name, r.value);
    return out;
}

}  // namespace

class TestCliStore : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString project(const QString& name) { return mlpProjectCopy(dir_, name); }
    static QString store_of(const QString& p) { return QString(p).replace(".lfproj", ".lfruns"); }
    static QStringList small(QStringList args) {
        return args << "--limit-train" << "600" << "--limit-test" << "100" << "--json";
    }

private slots:
    void initTestCase() {
        if (!QFile::exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"))
            QFAIL("Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist)");
    }

    void resume_continues_the_same_run_and_curve() {
        const QString a = project("straight"), b = project("resumed");
        Run ra = cli(small({"train", a, "--epochs", "2", "--checkpoint-every", "5"}));
        QVERIFY2(ra.code == 0, qPrintable(ra.err));
        Run rb = cli(small({"train", b, "--epochs", "1", "--checkpoint-every", "5"}));
        QVERIFY2(rb.code == 0, qPrintable(rb.err));
        Run rr = cli(small({"train", b, "--epochs", "2", "--checkpoint-every", "5", "--resume"}));
        QVERIFY2(rr.code == 0, qPrintable(rr.err));
        QCOMPARE(rr.lines().back()["run"], 1);  // the same run, continued
        QCOMPARE(read(dir_.filePath("straight.weights.safetensors")), read(dir_.filePath("resumed.weights.safetensors")));
        auto ca = curve(store_of(a).toStdString(), 1), cb = curve(store_of(b).toStdString(), 1);
        QCOMPARE(ca.size(), std::size_t(2 * 12 * 2 + 2 * 5));  // 12 steps x (loss, accuracy) per epoch; epoch rows
        QVERIFY(ca == cb);
        json runs = cli({"runs", "list", b, "--json"}).lines().back();
        QCOMPARE(runs["runs"].size(), 1u);
        QCOMPARE(runs["runs"][0]["status"], "finished");
        QCOMPARE(runs["runs"][0]["steps"], 24);
    }

    void list_compare_export_restore_evaluate() {
        const QString p = project("many");
        QVERIFY(cli(small({"train", p, "--epochs", "2", "--checkpoint-every", "4", "--keep", "2"})).code == 0);
        QVERIFY(cli(small({"train", p, "--epochs", "1", "--learning-rate", "0.01", "--run-name", "fast"})).code == 0);
        json runs = cli({"runs", "list", p, "--json"}).lines().back();
        QCOMPARE(runs["runs"].size(), 2u);
        QCOMPARE(runs["runs"][1]["name"], "fast");
        QVERIFY(runs["runs"][0]["final"].contains("val_loss"));

        Run cmp = cli({"runs", "compare", p, "1", "2"});
        QVERIFY2(cmp.code == 0, qPrintable(cmp.err));
        QVERIFY2(cmp.out.contains("learning_rate: 0.001 -> 0.01"), qPrintable(cmp.out));
        QVERIFY2(cmp.out.contains("epochs: 2 -> 1"), qPrintable(cmp.out));
        QVERIFY(cmp.out.contains("val_accuracy"));

        Run csv = cli({"runs", "export-csv", p, "1"});
        QCOMPARE(csv.code, 0);
        QStringList rows = csv.out.trimmed().split('\n');
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[0], QString("epoch,accuracy,loss,lr,val_accuracy,val_loss"));
        QVERIFY(rows[1].startsWith("0,") && rows[2].startsWith("1,"));

        // Retention: the 2 newest of run 1 plus its best by val_loss; run 2 keeps its own.
        json ck = cli({"checkpoints", "list", p, "--run", "1", "--json"}).lines().back();
        QVERIFY(ck["checkpoints"].size() >= 2 && ck["checkpoints"].size() <= 3);
        QCOMPARE(ck["checkpoints"].back()["step"], 24);
        const int first = ck["checkpoints"][0]["id"];
        QCOMPARE(cli({"checkpoints", "pin", p, QString::number(first)}).code, 0);
        QVERIFY(cli(small({"train", p, "--resume", "latest", "--run", "1", "--epochs", "3", "--keep", "1"})).code == 0);
        json after = cli({"checkpoints", "list", p, "--run", "1", "--json"}).lines().back();
        bool pinned_kept = false;
        for (const json& c : after["checkpoints"]) pinned_kept = pinned_kept || c["id"] == first;
        QVERIFY(pinned_kept);

        Run ev = cli({"evaluate", p, "--checkpoint", "best", "--limit-test", "100", "--json"});
        QVERIFY2(ev.code == 0, qPrintable(ev.err));
        QVERIFY(ev.lines().back()["metrics"]["accuracy"].get<double>() > 0.5);
        Run rs = cli({"restore", p, "latest", "--json"});
        QVERIFY2(rs.code == 0, qPrintable(rs.err));
        QVERIFY(QFile::exists(dir_.filePath("many.weights.safetensors")));

        // A changed graph: restore refuses and names the layer; --partial restores the rest.
        QString changed = project("many_changed");
        QFile::copy(store_of(p), store_of(changed));
        QByteArray text = read(changed);
        text.replace("\"units\": 100", "\"units\": 64");
        QFile f(changed);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
        f.close();
        Run refused = cli({"restore", changed, "latest"});
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.contains("dense/kernel: (784, 64) in the model, (784, 100) saved"), qPrintable(refused.err));
        Run partial = cli({"restore", changed, "latest", "--partial", "--json"});
        QVERIFY2(partial.code == 0, qPrintable(partial.err));
        QCOMPARE(partial.lines().back()["skipped"].size(), 3u);  // dense kernel + bias, dense_1 kernel

        Run missing = cli({"runs", "list", dir_.filePath("nothing.lfproj")});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.contains("no run store yet"));
    }

    // SIGKILL at random moments (during steps, checkpoint commits, metric flushes); after each
    // kill the store opens, passes integrity_check, every checkpoint is checksum-valid and
    // restorable, the last one the child reported committed is there, and no run reads
    // `running` (a killed one reads `interrupted`). Resuming each time,
    // the finished run equals an uninterrupted one.
    void killed_training_never_loses_committed_checkpoints() {
        const QString straight = project("crash_straight"), p = project("crash");
        const QStringList opts = {"--epochs", "3", "--limit-train", "2000", "--limit-test", "100",
                                  "--checkpoint-every", "3", "--keep", "3", "--log-every", "1000", "--json"};
        QElapsedTimer t;
        t.start();
        Run ref = cli(QStringList{"train", straight} + opts);
        QVERIFY2(ref.code == 0, qPrintable(ref.err));
        const int full_ms = int(t.elapsed());

        const lf::Project proj = lf::load_project(p.toStdString());
        std::mt19937 rng(12345);
        int kills = 0, verified = 0;
        bool killed = false;  // the last round was killed: resume its run, else start a new one
        bool interrupted_seen = false;  // a killed run read as `interrupted`
        for (int round = 0; round < 16; ++round) {
            QStringList args = {"train", p};
            if (killed && !lf::RunStore(store_of(p).toStdString()).checkpoints().empty()) args << "--resume" << "latest";
            QProcess child;
            child.start(qEnvironmentVariable("LF_CLI"), args + opts);
            QVERIFY(child.waitForStarted());
            const int wait = std::uniform_int_distribution<int>(full_ms / 10, full_ms * 4 / 5)(rng);
            if (!child.waitForFinished(wait)) {
                child.kill();  // SIGKILL
                child.waitForFinished();
                ++kills;
                killed = true;
            } else {
                QVERIFY2(child.exitCode() == 0, child.readAllStandardError().constData());
                killed = false;
            }
            Run r{-1, child.readAllStandardOutput(), child.readAllStandardError()};
            std::int64_t last_reported = 0;
            for (const json& l : r.lines())
                if (l.value("event", "") == "checkpoint") last_reported = l["id"];

            lf::RunStore store(store_of(p).toStdString());
            QCOMPARE(store.integrity_check(), std::string("ok"));
            for (const lf::RunInfo& run : store.runs()) {  // no trainer is alive now
                QVERIFY2(run.status != lf::RunStatus::Running, qPrintable(QString("run %1 still reads running").arg(run.id)));
                interrupted_seen = interrupted_seen || run.status == lf::RunStatus::Interrupted;
            }
            bool found = last_reported == 0;
            for (const lf::CheckpointInfo& c : store.checkpoints()) {
                found = found || c.id == last_reported;
                lf::Model m(proj.graph);
                auto opt = lf::make_optimizer(proj.training.optimizer.type, proj.training.optimizer.params);
                opt->bind(m.weights().size());
                lf::TrainState s = lf::restore_checkpoint(m, *opt, store.checkpoint_blob(c.id), "checkpoint");
                QCOMPARE(s.iterations, c.step);
                ++verified;
            }
            QVERIFY2(found, qPrintable(QString("checkpoint %1 was reported saved but is gone").arg(last_reported)));
        }
        QVERIFY2(kills >= 6, qPrintable(QString("only %1 kills landed").arg(kills)));
        QVERIFY(interrupted_seen);
        if (killed) {
            Run last = cli(QStringList{"train", p, "--resume", "latest"} + opts);
            QVERIFY2(last.code == 0, qPrintable(last.err));
        }
        QCOMPARE(read(dir_.filePath("crash.weights.safetensors")), read(dir_.filePath("crash_straight.weights.safetensors")));
        qInfo("%d kills, %d checkpoint verifications", kills, verified);
    }
};

QTEST_GUILESS_MAIN(TestCliStore)
#include "test_cli_store.moc"
#include "run_status_text.h"
