// layerforge-cli and TensorBoard: train --tensorboard writes, while training, the scalars the
// run store records (plus the per-step learning rate), in Keras' train/validation layout; a
// resume from an earlier checkpoint begins its files with a SessionLog START that drops exactly
// what the store drops; an unwritable log folder warns once and the training goes on; runs
// export-tensorboard then import-tensorboard gives back the same points, and import reports
// damage with file and offset, skips what it imported before, and exits 1 when nothing is new.
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

#include "cli_runner.h"
#include "layerforge/store/run_store.h"
#include "layerforge/tensorboard/event_file.h"
#include "layerforge/tensorboard/log_folder.h"
#include "layerforge/tensorboard/metric_tags.h"

namespace fs = std::filesystem;
using namespace lf;

namespace {

// (split, name, step, epoch, value as float32) of every row, sorted.
using Point = std::tuple<std::string, std::string, std::int64_t, std::int64_t, float>;

std::vector<Point> points(const std::vector<MetricRow>& rows, bool with_step_lr, bool with_test = false) {
    std::vector<Point> out;
    for (const MetricRow& r : rows) {
        if ((r.split == "test" && !with_test) || (!with_step_lr && r.split == "train" && r.name == "lr")) continue;
        out.emplace_back(r.split, r.name, r.step, r.epoch, float(r.value));
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<Point> store_points(const QString& project, std::int64_t run) {
    RunStore s(QString(project).replace(".lfproj", ".lfruns").toStdString(), false);
    return points(s.metrics(run), false);
}

std::string store_of(const QString& project) { return QString(project).replace(".lfproj", ".lfruns").toStdString(); }

QStringList small(QStringList args) { return args << "--limit-train" << "200" << "--limit-test" << "50"; }

std::vector<fs::path> event_files(const fs::path& folder) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(folder))
        if (tensorboard::is_event_file_name(e.path().filename().string())) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

class TestCliTensorBoard : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    fs::path logs(const QString& name) const { return fs::path(dir_.filePath(name).toStdString()); }

private slots:
    void live_files_hold_the_run_stores_scalars() {
        const QString p = mlpProjectCopy(dir_, "live");
        CliRun r = cli(small({"train", p, "--epochs", "2", "--tensorboard", QString::fromStdString(logs("tb1").string())}));
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains("TensorBoard logs in"), qPrintable(r.out));
        const tensorboard::LogFolder f = tensorboard::read_log_folder(logs("tb1").string());
        QVERIFY(f.damage.empty());
        QCOMPARE(f.runs.size(), std::size_t(1));
        const tensorboard::LogRun& run = f.runs[0];
        QCOMPARE(run.name, std::string("fashion_mlp-1"));  // the run's name and id
        QCOMPARE(run.parts.size(), std::size_t(2));
        QVERIFY(run.parts.at("train").count("batch_loss") && run.parts.at("train").count("epoch_accuracy"));
        QVERIFY(run.parts.at("validation").count("epoch_loss"));
        // every file begins with the version
        for (const char* part : {"train", "validation"}) {
            const std::vector<fs::path> files = event_files(logs("tb1") / "fashion_mlp-1" / part);
            QCOMPARE(files.size(), std::size_t(1));
            std::vector<tensorboard::Event> events;
            QVERIFY(!tensorboard::read_event_file(files[0].string(),
                                                  [&](const tensorboard::Event& e) { events.push_back(e); }));
            QCOMPARE(events.front().file_version, std::string("brain.Event:2"));
        }
        const std::vector<MetricRow> rows = tensorboard::rows_from_log(run, 1);
        const std::vector<Point> store = store_points(p, 1);
        QVERIFY(store.size() > 20);
        QVERIFY(points(rows, false) == store);
        // and the learning rate of every step
        const auto& lr = run.parts.at("train").at("batch_learning_rate");
        QCOMPARE(lr.size(), run.parts.at("train").at("batch_loss").size());
        QCOMPARE(float(lr.front().value), 0.001f);
    }

    void resume_starts_with_session_log_start() {
        const QString p = mlpProjectCopy(dir_, "resumed");
        const QString tb = QString::fromStdString(logs("tb2").string());
        CliRun first = cli(small({"train", p, "--epochs", "1", "--checkpoint-every", "3", "--tensorboard", tb}));
        QVERIFY2(first.code == 0, qPrintable(first.err));
        // from ckpt-3: the first run's steps 4.. and its epoch end are redone
        CliRun again = cli(small({"train", p, "--epochs", "2", "--resume", "ckpt-3", "--tensorboard", tb}));
        QVERIFY2(again.code == 0, qPrintable(again.err + again.out));
        const fs::path train = logs("tb2") / "fashion_mlp-1" / "train";
        const std::vector<fs::path> files = event_files(train);
        QCOMPARE(files.size(), std::size_t(2));
        std::vector<tensorboard::Event> events;
        QVERIFY(!tensorboard::read_event_file(files[1].string(), [&](const tensorboard::Event& e) { events.push_back(e); }));
        QVERIFY(events.size() > 2);
        QCOMPARE(events[0].file_version, std::string("brain.Event:2"));
        QVERIFY(events[1].session_status == tensorboard::SessionStatus::Start);
        QCOMPARE(events[1].step, std::int64_t(4));
        QCOMPARE(events[2].step, std::int64_t(4));  // the first step the resumed run takes
        // read back as TensorBoard does, the folder holds the store's one curve
        const tensorboard::LogFolder f = tensorboard::read_log_folder(logs("tb2").string());
        QCOMPARE(f.runs.size(), std::size_t(1));
        QVERIFY(points(tensorboard::rows_from_log(f.runs[0], 1), false) == store_points(p, 1));
    }

    void unwritable_folder_warns_and_training_goes_on() {
        const QString p = mlpProjectCopy(dir_, "blocked");
        std::ofstream(logs("a_file")) << "not a folder";
        const QString tb = QString::fromStdString((logs("a_file") / "logs").string());
        CliRun r = cli(small({"train", p, "--epochs", "1", "--tensorboard", tb}));
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
        QCOMPARE(r.out.count("TensorBoard logging stopped"), 1);
        QVERIFY2(r.out.contains("a_file"), qPrintable(r.out));
        QVERIFY(!store_points(p, 1).empty());
        QVERIFY(r.out.contains("weights saved"));

        CliRun bad = cli({"train", p, "--tensorboard", ""});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("--tensorboard"), qPrintable(bad.err));
    }

    void export_then_import_gives_the_same_points() {
        const QString p = mlpProjectCopy(dir_, "exported");
        QVERIFY(cli(small({"train", p, "--epochs", "2"})).code == 0);
        const QString out = QString::fromStdString(logs("tb3").string());
        CliRun ex = cli({"runs", "export-tensorboard", p, "1", "--out", out, "--json"});
        QVERIFY2(ex.code == 0, qPrintable(ex.err));
        QCOMPARE(ex.lines().back()["runs"][0]["folder"], (logs("tb3") / "fashion_mlp-1").string());
        // a second export into the same folder would double every curve in TensorBoard
        CliRun twice = cli({"runs", "export-tensorboard", p, "1", "--out", out});
        QCOMPARE(twice.code, 2);
        QVERIFY2(twice.err.contains("already holds"), qPrintable(twice.err));

        const QString q = mlpProjectCopy(dir_, "importer");  // no runs yet: the store is created
        CliRun im = cli({"runs", "import-tensorboard", q, out, "--json"});
        QVERIFY2(im.code == 0, qPrintable(im.err + im.out));
        QCOMPARE(im.lines().back()["imported"].size(), 1u);
        RunStore original(store_of(p), false), imported(store_of(q), false);
        const RunInfo info = imported.run(1);
        QCOMPARE(info.name, std::string("fashion_mlp-1"));
        QVERIFY(info.status == RunStatus::Finished);
        QCOMPARE(info.source, "tensorboard:" + (logs("tb3") / "fashion_mlp-1").string());
        // its start is its first point's (the same second as the original's, or just after)
        QCOMPARE(info.created.size(), std::size_t(20));
        QVERIFY(info.created >= original.run(1).created && info.created <= original.run(1).finished);
        const std::vector<MetricRow> a = original.metrics(1), b = imported.metrics(1);
        QVERIFY(a.size() > 20);
        QVERIFY(points(a, true, true) == points(b, true, true));
        std::vector<double> ta, tb;
        for (const MetricRow& r : a) ta.push_back(r.wall_time);
        for (const MetricRow& r : b) tb.push_back(r.wall_time);
        std::sort(ta.begin(), ta.end()), std::sort(tb.begin(), tb.end());
        QVERIFY(ta == tb);

        CliRun again = cli({"runs", "import-tensorboard", q, out});
        QCOMPARE(again.code, 1);
        QVERIFY2(again.out.contains("already imported as run 1"), qPrintable(again.out));
    }

    void import_reports_damage_and_keeps_the_rest() {
        const QString p = mlpProjectCopy(dir_, "damaged");
        QVERIFY(cli(small({"train", p, "--epochs", "1", "--tensorboard", QString::fromStdString(logs("tb4").string())})).code == 0);
        const fs::path file = event_files(logs("tb4") / "fashion_mlp-1" / "train")[0];
        const auto size = fs::file_size(file);
        fs::resize_file(file, size - 3);  // a truncated tail
        fs::create_directories(logs("tb4") / "notes");
        std::ofstream(logs("tb4") / "notes" / "events.out.tfevents.x", std::ios::binary) << "just some notes\n";
        const QString q = mlpProjectCopy(dir_, "damaged_import");
        CliRun im = cli({"runs", "import-tensorboard", q, QString::fromStdString(logs("tb4").string()), "--json"});
        QVERIFY2(im.code == 0, qPrintable(im.err + im.out));
        const auto j = im.lines().back();
        QCOMPARE(j["imported"].size(), 1u);
        QCOMPARE(j["damage"].size(), 2u);
        bool truncated = false, foreign = false;
        for (const auto& d : j["damage"]) {
            if (d["file"] == file.string()) {
                truncated = true;
                QVERIFY(d["offset"].get<std::uint64_t>() > 0 && d["offset"].get<std::uint64_t>() < size);
                QVERIFY(d["problem"].get<std::string>().find("truncated") != std::string::npos);
            }
            if (d["problem"].get<std::string>().find("not a TensorBoard event file") != std::string::npos) foreign = true;
        }
        QVERIFY(truncated && foreign);
        // everything before the damage: all of it but the last record
        const std::vector<Point> before = store_points(p, 1), after = points(RunStore(store_of(q), false).metrics(1), false);
        QCOMPARE(after.size() + 1, before.size());
        CliRun text = cli({"runs", "import-tensorboard", mlpProjectCopy(dir_, "damaged_text"),
                           QString::fromStdString(logs("tb4").string())});
        QVERIFY2(text.out.contains("damaged: " + QString::fromStdString(file.string())) && text.out.contains("at byte"),
                 qPrintable(text.out));
    }

    void import_and_export_arguments() {
        const QString p = mlpProjectCopy(dir_, "args");
        fs::create_directories(logs("empty_logs"));
        CliRun none = cli({"runs", "import-tensorboard", p, QString::fromStdString(logs("empty_logs").string())});
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains("nothing imported"), qPrintable(none.err));
        QCOMPARE(cli({"runs", "import-tensorboard", p}).code, 2);
        CliRun missing = cli({"runs", "import-tensorboard", p, QString::fromStdString(logs("nowhere").string())});
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.contains("nowhere"), qPrintable(missing.err));
        QVERIFY(cli(small({"train", p, "--epochs", "1"})).code == 0);
        CliRun no_out = cli({"runs", "export-tensorboard", p, "1"});
        QCOMPARE(no_out.code, 2);
        QVERIFY2(no_out.err.contains("--out"), qPrintable(no_out.err));
        QCOMPARE(cli({"runs", "export-tensorboard", p, "7", "--out", QString::fromStdString(logs("x").string())}).code, 2);
        QCOMPARE(cli({"runs", "export-tensorboard", p, "--out", QString::fromStdString(logs("x").string())}).code, 2);
        QVERIFY(!fs::exists(logs("x")));
    }
};

QTEST_GUILESS_MAIN(TestCliTensorBoard)
#include "test_cli_tensorboard.moc"
