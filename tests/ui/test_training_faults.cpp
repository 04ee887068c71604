// Resource faults in the studio's Train workspace: a dataset folder deleted while training, a
// loss that turns NaN mid-run, the memory limit set in the training settings form, and a real
// out-of-memory while the plan is built. Each ends the run with failed(message) naming the
// file, epoch or setting, the window stays usable (the next run trains), and the checkpoints
// committed before the fault stay in the run store and restore. The CLI suite
// (tests/cli/test_cli_faults.cpp) covers the full and read-only volumes.
#include <sys/resource.h>

#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "document/project_document.h"
#include "layerforge/store/run_store.h"
#include "mainwindow/main_window.h"
#include "session/studio_session.h"
#include "training/error_banner.h"
#include "training/training_panel.h"
#include "training/training_settings_form.h"
#include "fault_fixtures.h"
#include "image_folder_fixture.h"

using namespace lf;
using namespace lf::ui;

namespace {

int epochEnds(const QSignalSpy& spy) {
    int n = 0;
    for (const auto& args : spy) n += args.at(0).value<lf::TrainEvent>().kind == EventKind::EpochEnd;
    return n;
}

// Bytes of address space this process maps now (VmSize).
rlim_t mappedBytes() {
    QFile f("/proc/self/status");
    if (!f.open(QIODevice::ReadOnly)) return 0;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmSize:")) return rlim_t(line.mid(7).trimmed().split(' ')[0].toULongLong()) * 1024;
    return 0;
}

}  // namespace

class TestTrainingFaults : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString data_;

    struct Studio {
        MainWindow window;
        TrainingPanel* panel = nullptr;
        TrainingController* controller = nullptr;
        explicit Studio(const QString& recovery) : window(recovery, 3600000) {
            panel = window.findChild<TrainingPanel*>();
            controller = panel->controller();
            TrainingOptions o = controller->options();
            o.logEvery = 1;
            o.eventIntervalMs = 0;
            controller->setOptions(o);
        }
    };

    // The window can train again after the fault: a short healthy run finishes.
    void trainsAgain(Studio& s, const QString& name) {
        s.window.document()->reset(tinyImageProject(data_, 1), dir_.filePath(name + ".lfproj"));
        QSignalSpy finished(s.controller, &TrainingController::finished);
        QVERIFY(s.panel->startButton()->isEnabled());
        QVERIFY(s.controller->start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), lf::RunStatus::Finished);
        QVERIFY(s.window.findChild<ErrorBanner*>()->isHidden());
    }

    // failed(message) came once, the banner shows it, and the panel is ready for the next run.
    static QString failure(Studio& s, const QSignalSpy& failed, const QSignalSpy& finished) {
        if (finished.size() != 1 || failed.size() != 1) return {};
        if (finished[0][0].value<lf::RunStatus>() != lf::RunStatus::Failed) return {};
        if (s.controller->state() != TrainingController::State::Idle || !s.panel->startButton()->isEnabled()) return {};
        const QString message = failed[0][0].toString();
        return s.window.findChild<ErrorBanner*>()->message().contains(message.left(40)) ? message : QString();
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        data_ = dir_.filePath("images");
        writeImageFolder(data_);
    }

    void datasetDeletedMidRunFailsNamingTheFile() {
        Studio s(dir_.filePath("r1.lfproj"));
        const QString data = dir_.filePath("unplugged");
        writeImageFolder(data);
        s.window.document()->reset(uncachedProject(data, 100000), dir_.filePath("unplugged.lfproj"));
        QSignalSpy failed(s.controller, &TrainingController::failed),
            finished(s.controller, &TrainingController::finished), ckpts(s.controller, &TrainingController::checkpointSaved);
        QVERIFY(s.controller->start());
        QTRY_VERIFY_WITH_TIMEOUT(ckpts.size() >= 1, 10000);
        QVERIFY(QDir(data).removeRecursively());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);  // ends, does not hang
        const QString message = failure(s, failed, finished);
        QVERIFY2(message.contains("the dataset file " + data + "/") && message.contains("is missing"),
                 qPrintable(finished[0][1].toString()));
        RunStore store(s.window.session()->storePath().toStdString(), false);
        QCOMPARE(store.run(s.controller->runId()).status, lf::RunStatus::Failed);
        QCOMPARE(store.integrity_check(), std::string("ok"));
        verifyRestorable(store, uncachedProject(data, 1), s.controller->runId());
        trainsAgain(s, "after-unplugged");
    }

    void nanMidRunNamesTheEpochAndKeepsTheCheckpoint() {
        Studio s(dir_.filePath("r2.lfproj"));
        Project p = tinyImageProject(data_, 6);
        p.training.schedule = {"exponential_decay",
                               {{"decay_steps", std::int64_t(15)}, {"decay_rate", 1e20}, {"staircase", true}}};
        s.window.document()->reset(p, dir_.filePath("nan.lfproj"));
        QSignalSpy failed(s.controller, &TrainingController::failed),
            finished(s.controller, &TrainingController::finished), events(s.controller, &TrainingController::trainEvent);
        QVERIFY(s.controller->start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        const QString message = failure(s, failed, finished);
        QVERIFY2(message.contains("the loss became") && message.contains(", step "), qPrintable(finished[0][1].toString()));
        QVERIFY(epochEnds(events) >= 1);  // mid-run, not at step 1
        RunStore store(s.window.session()->storePath().toStdString(), false);
        QVERIFY(!store.checkpoints(s.controller->runId()).empty());
        const CheckpointInfo last = store.checkpoints(s.controller->runId()).back();
        QVERIFY2(message.contains(QString("at epoch %1,").arg(last.epoch + 1)), qPrintable(message));
        QVERIFY2(message.contains("last checkpoint, " + QString::fromStdString(last.name())), qPrintable(message));
        verifyRestorable(store, p, s.controller->runId());
        QVERIFY(!s.window.session()->hasWeights());
        trainsAgain(s, "after-nan");
    }

    void memoryLimitFromTheSettingsFormFailsBeforeTheFirstEpoch() {
        Studio s(dir_.filePath("r3.lfproj"));
        s.window.document()->reset(hugePlanProject(data_), dir_.filePath("limit.lfproj"));
        TrainingSettingsForm* form = s.panel->findChild<TrainingSettingsForm*>();
        QVERIFY(form);
        QCOMPARE(form->memoryLimit()->value(), 0);
        form->memoryLimit()->setValue(500);
        QCOMPARE(s.window.document()->project().training.memory_limit_mb, std::int64_t(500));
        QSignalSpy failed(s.controller, &TrainingController::failed),
            finished(s.controller, &TrainingController::finished), events(s.controller, &TrainingController::trainEvent);
        QVERIFY(s.controller->start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        const QString message = failure(s, failed, finished);
        QVERIFY2(message.contains("at batch size 64") && message.contains("the memory limit is 500 MB"),
                 qPrintable(finished[0][1].toString()));
        QCOMPARE(epochEnds(events), 0);
        s.window.document()->undoStack()->undo();  // the limit is an undoable edit
        QCOMPARE(s.window.document()->project().training.memory_limit_mb, std::int64_t(0));
        QCOMPARE(form->memoryLimit()->value(), 0);
        trainsAgain(s, "after-limit");
    }

    // RLIMIT_AS on this process for the duration of one run: the plan's allocation fails for
    // real, and the run ends with a message instead of terminating the studio.
    void outOfMemoryBuildingThePlanIsReported() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        QSKIP("RLIMIT_AS cannot combine with a sanitizer's shadow memory reservation (terabytes of address space)");
#endif
        Studio s(dir_.filePath("r4.lfproj"));
        s.window.document()->reset(hugePlanProject(data_), dir_.filePath("oom.lfproj"));
        QSignalSpy failed(s.controller, &TrainingController::failed),
            finished(s.controller, &TrainingController::finished);
        rlimit old{};
        getrlimit(RLIMIT_AS, &old);
        rlimit limit = old;
        limit.rlim_cur = mappedBytes() + (rlim_t(1) << 30);  // 1 GB more; the plan wants ~4 GB
        QVERIFY(mappedBytes() > 0 && setrlimit(RLIMIT_AS, &limit) == 0);
        const bool started = s.controller->start();
        QTest::qWaitFor([&] { return finished.size() == 1; }, 20000);
        setrlimit(RLIMIT_AS, &old);
        QVERIFY(started);
        const QString message = failure(s, failed, finished);
        QVERIFY2(message.contains("out of memory while building the training plan at batch size 60"),
                 qPrintable(finished.isEmpty() ? QString("no end") : finished[0][1].toString()));
        trainsAgain(s, "after-oom");
    }
};

QTEST_MAIN(TestTrainingFaults)
#include "test_training_faults.moc"
#include "run_status_text.h"
