// TrainingSession, the run that `layerforge-cli train` and the studio share: what it records
// and reports, pause and stop requested before the fit begins (while the data is bound) and
// while it runs, and a failing fit that keeps its committed checkpoints.
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <filesystem>
#include <thread>

#include "graph_builder.h"
#include "layerforge/core/error.h"
#include "layerforge/run/session.h"
#include "layerforge/store/run_store.h"

using namespace lf;

namespace {

Project small_project(std::int64_t epochs) {
    Project p;
    p.name = "session";
    p.graph = mlp_builder({28, 28, 1}, 16).graph;
    p.dataset.limit_train = 200;  // 10 steps of 20 per epoch
    p.dataset.limit_test = 50;
    p.training.batch_size = 20;
    p.training.epochs = epochs;
    return p;
}

struct Lines : SessionListener {
    std::vector<std::string> lines;
    std::vector<std::int64_t> checkpoints;
    std::int64_t run = 0;
    void on_line(const std::string& t) override { lines.push_back(t); }
    void on_run_created(std::int64_t r, const std::string&) override { run = r; }
    void on_checkpoint(const CheckpointInfo& c) override { checkpoints.push_back(c.id); }
};

// Counts step events and the kinds seen, from the training thread.
struct Events : TrainObserver {
    std::atomic<int> steps{0}, paused{0};
    std::atomic<bool> stopped{false};
    void on_event(const TrainEvent& e) override {
        if (e.kind == EventKind::Step) ++steps;
        if (e.kind == EventKind::Paused) ++paused;
        if (e.kind == EventKind::Stopped) stopped = true;
    }
};

}  // namespace

class TestSession : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    SessionOptions options(const QString& name) {
        SessionOptions o;
        o.project_path = dir_.filePath(name + ".lfproj").toStdString();
        o.log_every = 1;
        return o;
    }

private Q_SLOTS:
    void recordsTheRunAndReportsEachStage() {
        Lines out;
        SessionOptions o = options("full");
        o.checkpoints.every_steps = 4;
        o.keep = 2;
        TrainingSession s(small_project(2), o, &out);
        SessionResult r = s.run();
        QCOMPARE(r.fit.status, lf::RunStatus::Finished);
        QCOMPARE(r.fit.steps, std::int64_t(20));
        QVERIFY(r.test && r.test->samples == 50);
        QCOMPARE(r.run, out.run);
        QCOMPARE(r.weights_path, default_weights_path(o.project_path));
        QVERIFY(std::filesystem::file_size(r.weights_path) == r.weights.size());
        RunStore store(RunStore::path_for_project(o.project_path), false);
        QCOMPARE(store.run(r.run).status, lf::RunStatus::Finished);
        QCOMPARE(out.checkpoints.size(), std::size_t(6));  // steps 4, 8, 10 (epoch), 12, 16, 20 (epoch)
        const std::size_t kept = store.checkpoints(r.run).size();  // the newest 2, and the best if it is older
        QVERIFY(kept == 2 || kept == 3);
        QCOMPARE(store.metrics(r.run, "test").size(), std::size_t(2));  // loss, accuracy
        QVERIFY(out.lines.front().rfind("data: 200 training, 50 validation, 50 test samples, 10 classes", 0) == 0);
        QCOMPARE(out.lines[1], std::string("starting from random weights (seed 42)"));  // no initial weights
        QVERIFY(out.lines[2].rfind("run " + std::to_string(r.run) + " recorded in ", 0) == 0);
        QVERIFY(out.lines.back().rfind("weights saved to ", 0) == 0);
        QVERIFY(out.lines[out.lines.size() - 2].rfind("test  loss ", 0) == 0);
    }

    void pauseAndStopRequestedBeforeTheFitWait() {
        Events ev;
        SessionOptions o = options("early");
        o.observers = {&ev};
        TrainingSession s(small_project(50), o);
        s.request_pause();  // before run(): the trainer does not exist yet
        SessionResult r;
        std::thread t([&] { r = s.run(); });
        QTRY_COMPARE_WITH_TIMEOUT(ev.paused.load(), 1, 5000);
        const int steps = ev.steps.load();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        QCOMPARE(ev.steps.load(), steps);  // paused after the first step, and stays so
        s.request_resume();
        QTRY_VERIFY_WITH_TIMEOUT(ev.steps.load() > steps + 2, 5000);
        s.request_stop();
        t.join();
        QCOMPARE(r.fit.status, lf::RunStatus::Stopped);
        QVERIFY(ev.stopped);
        RunStore store(RunStore::path_for_project(o.project_path), false);
        QCOMPARE(store.run(r.run).status, lf::RunStatus::Stopped);
        QCOMPARE(store.checkpoints(r.run).back().step, r.fit.steps);  // the stop checkpoints
    }

    void stopBeforeTheFitEndsAfterOneStep() {
        SessionOptions o = options("stop");
        TrainingSession s(small_project(50), o);
        s.request_stop();
        SessionResult r = s.run();
        QCOMPARE(r.fit.status, lf::RunStatus::Stopped);
        QCOMPARE(r.fit.steps, std::int64_t(1));
        QVERIFY(!r.weights.empty() && r.test);

        SessionOptions closing = options("closing");
        TrainingSession s2(small_project(50), closing);
        s2.request_stop(/*finish_up=*/false);  // the studio closing: no test pass, no weights
        r = s2.run();
        QCOMPARE(r.fit.status, lf::RunStatus::Stopped);
        QVERIFY(r.weights.empty() && !r.test);
        QVERIFY(!std::filesystem::exists(default_weights_path(closing.project_path)));
    }

    void aFailingFitKeepsItsCheckpoints() {
        Project p = small_project(3);
        p.training.optimizer = {"SGD", {{"learning_rate", 1e38}}};
        SessionOptions o = options("nan");
        o.checkpoints.every_steps = 1;  // step 1 is committed before the loss overflows
        Lines out;
        TrainingSession s(p, o, &out);
        SessionResult r = s.run();
        QCOMPARE(r.fit.status, lf::RunStatus::Failed);
        QVERIFY2(r.fit.message.find("loss became") != std::string::npos, r.fit.message.c_str());
        QVERIFY(r.weights.empty() && r.weights_path.empty());
        QVERIFY(!std::filesystem::exists(default_weights_path(o.project_path)));
        RunStore store(RunStore::path_for_project(o.project_path), false);
        QCOMPARE(store.run(r.run).status, lf::RunStatus::Failed);
        QVERIFY(!store.checkpoints(r.run).empty());
    }

    void badInputThrowsAndMarksTheRunFailed() {
        Project p = small_project(1);
        SessionOptions o = options("bad");
        o.resume = "ckpt-999";  // no such checkpoint: nothing recorded
        TrainingSession s(p, o);
        QVERIFY_THROWS_EXCEPTION(lf::Error, s.run());
        o = options("badmode");
        o.best_mode = "sideways";
        TrainingSession s2(p, o);
        QVERIFY_THROWS_EXCEPTION(lf::Error, s2.run());
    }
};

QTEST_MAIN(TestSession)
#include "test_session.moc"
#include "run_status_text.h"
