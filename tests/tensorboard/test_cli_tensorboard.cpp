// layerforge-cli and TensorBoard: train --tensorboard writes, while training, the scalars the
// run store records (plus the per-step learning rate), in Keras' train/validation layout; a
// resume from an earlier checkpoint begins its files with a SessionLog START that drops exactly
// what the store drops; an unwritable log folder warns once and the training goes on.
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

std::vector<Point> points(const std::vector<MetricRow>& rows, bool with_step_lr) {
    std::vector<Point> out;
    for (const MetricRow& r : rows) {
        if (r.split == "test" || (!with_step_lr && r.split == "train" && r.name == "lr")) continue;
        out.emplace_back(r.split, r.name, r.step, r.epoch, float(r.value));
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<Point> store_points(const QString& project, std::int64_t run) {
    RunStore s(QString(project).replace(".lfproj", ".lfruns").toStdString(), false);
    return points(s.metrics(run), false);
}

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
};

QTEST_GUILESS_MAIN(TestCliTensorBoard)
#include "test_cli_tensorboard.moc"
