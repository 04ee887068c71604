// A multi-process run as the Train page drives it, against a stand-in mpirun on PATH that
// prints what rank 0 of `layerforge-cli train --distributed --json` prints: the events reach the
// dashboard as an in-process run's do (progress, every step for the charts, run id,
// checkpoints, weights, class list), with each rank's rate; a failed job shows the lines that
// name a rank in the error banner, not Open MPI's banner; Stop is a clean stop (SIGUSR1) with
// the run's weights, forced (SIGINT) when the ranks do not take it; closing the studio ends the
// job; Pause stays off.
#include <QDir>
#include <QLabel>
#include <QFile>
#include <QMainWindow>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

#include "document/project_document.h"
#include "session/studio_session.h"
#include "training/distributed_job.h"
#include "training/error_banner.h"
#include "training/message_views.h"
#include "training/training_panel.h"
#include "training/training_progress.h"
#include "image_folder_fixture.h"
#include "train_event_spy.h"

using namespace lf;
using namespace lf::ui;

namespace {

// Records its arguments and pid, then acts as LF_FAKE_MODE says.
const char* kFakeMpirun = R"(#!/bin/bash
printf '%s\n' "$@" > "$LF_FAKE_DIR/args"
echo $$ > "$LF_FAKE_DIR/pid"
case "$LF_FAKE_MODE" in
  finish) cat "$LF_FAKE_DIR/out.jsonl"; exit 0 ;;
  fail) cat "$LF_FAKE_DIR/out.jsonl"; cat "$LF_FAKE_DIR/err.txt" >&2; exit 1 ;;
  hang)
    sleep 60 & child=$!
    trap 'echo USR1 >> "$LF_FAKE_DIR/signal"' USR1
    trap 'kill $child; echo INT >> "$LF_FAKE_DIR/signal"; exit 130' INT
    trap 'kill $child; echo TERM >> "$LF_FAKE_DIR/signal"; exit 143' TERM
    cat "$LF_FAKE_DIR/out.jsonl"
    while kill -0 $child 2> /dev/null; do wait $child; done ;;
  stop)
    sleep 60 & child=$!
    trap 'kill $child; echo USR1 >> "$LF_FAKE_DIR/signal"; cat "$LF_FAKE_DIR/stopped.jsonl"; exit 3' USR1
    cat "$LF_FAKE_DIR/out.jsonl"
    while kill -0 $child 2> /dev/null; do wait $child; done ;;
esac
)";

QByteArray step(int n) {
    const int epoch = (n - 1) / 15 + 1;
    return QString(R"({"event":"step","epoch":%1,"epochs":3,"step":%2,"steps_per_epoch":15,"total_steps":45,)"
                   R"("metrics":{"loss":%3,"accuracy":0.5},"learning_rate":0.05,"images_per_second":10000,)"
                   R"("rank_images_per_second":[5012.4,4987.3],"eta_seconds":1,"elapsed_seconds":0.5,"data_wait_fraction":0})")
        .arg(epoch).arg(n).arg(1.0 / n).toUtf8() + "\n";
}

QByteArray epochEnd(int epoch) {
    return QString(R"({"event":"epoch_end","epoch":%1,"epochs":3,"step":%2,"steps_per_epoch":15,"total_steps":45,)"
                   R"("metrics":{"loss":0.5,"accuracy":0.6,"val_loss":0.7},"elapsed_seconds":1})").arg(epoch).arg(15 * epoch).toUtf8() + "\n";
}

bool write(const QString& path, const QByteArray& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

QString read(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class TestDistributedJob : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString fake_, project_;
    QByteArray path_;

    // A saved project (the ranks read its file) and Processes = 2.
    void setUp(ProjectDocument& doc) {
        doc.reset(tinyImageProject(dir_.filePath("images"), 3), project_);
        QString error;
        QVERIFY2(doc.saveAs(project_, &error), qPrintable(error));
        QSettings().setValue("train/processes", 2);
    }

    static void fast(TrainingController& c) {
        TrainingOptions o = c.options();
        o.eventIntervalMs = 0;
        c.setOptions(o);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        fake_ = dir_.filePath("fake");
        QDir().mkpath(fake_ + "/bin");
        QVERIFY(write(fake_ + "/bin/mpirun", kFakeMpirun));
        QFile::setPermissions(fake_ + "/bin/mpirun", QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        path_ = qgetenv("PATH");
        qputenv("PATH", (fake_ + "/bin:").toUtf8() + path_);  // bash, cat, sleep stay reachable
        qputenv("LF_FAKE_DIR", fake_.toUtf8());
        project_ = dir_.filePath("job.lfproj");
    }
    void init() {
        for (const char* f : {"args", "pid", "signal", "out.jsonl", "err.txt", "stopped.jsonl"}) QFile::remove(fake_ + "/" + f);
        DistributedJob::setGracePeriods(0, 0);
    }

    void jobFeedsTheDashboardAsAnInProcessRunDoes() {
        QByteArray out = R"({"event":"data","train":60,"validation":0,"test":12,"classes":["dark","light","mid"],"skipped":[]})" "\n"
                         R"({"event":"run","run":7,"store":"x.lfruns"})" "\n"
                         R"({"event":"run_started","epoch":0,"epochs":3,"step":0,"steps_per_epoch":15,"total_steps":45,"elapsed_seconds":0})" "\n";
        for (int n = 1; n <= 45; ++n) {
            if (n % 15 != 0) out += step(n);  // as the CLI: an epoch's last step comes as its EpochEnd
            if (n % 15 == 0) out += epochEnd(n / 15) + QString(R"({"event":"checkpoint","id":%1,"run":7,"step":%2})").arg(100 + n / 15).arg(n).toUtf8() + "\n";
        }
        QVERIFY(write(fake_ + "/weights.safetensors", "trained weights"));
        out += R"({"event":"finished","epoch":3,"epochs":3,"step":45,"steps_per_epoch":15,"total_steps":45,"elapsed_seconds":2})" "\n";
        out += (R"({"event":"result","status":"finished","message":"","run":7,"test":{"loss":0.4},"weights":")" + fake_ +
                R"(/weights.safetensors"})").toUtf8() + "\n";
        QVERIFY(write(fake_ + "/out.jsonl", out));
        qputenv("LF_FAKE_MODE", "finish");

        ProjectDocument doc;
        setUp(doc);
        StudioSession session(&doc);
        TrainingPanel panel(&session);
        TrainingController& c = *panel.controller();
        fast(c);
        QSignalSpy started(&c, &TrainingController::started), events(&c, &TrainingController::trainEvent),
            ckpts(&c, &TrainingController::checkpointSaved),
            finished(&c, &TrainingController::finished), weights(&session, &StudioSession::weightsChanged);
        std::vector<std::int64_t> charted;  // what the charts get
        lf::Metrics epochsLast;
        connect(&c, &TrainingController::stepsLogged, this, [&](const std::vector<lf::TrainEvent>& steps) {
            for (const auto& e : steps) {
                charted.push_back(e.step);
                if (e.step == 15) epochsLast = e.metrics;
            }
        });
        QVERIFY2(panel.startButton()->isEnabled(), qPrintable(panel.blockedReason()->text()));
        panel.startButton()->click();
        QVERIFY(c.isJob());
        QCOMPARE(c.state(), TrainingController::State::Running);
        QVERIFY(!panel.pauseButton()->isEnabled());  // a job cannot pause
        QVERIFY(panel.stopButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), lf::RunStatus::Finished);
        QCOMPARE(c.state(), TrainingController::State::Idle);
        QCOMPARE(started.size(), 1);
        QCOMPARE(started[0][0].toLongLong(), qint64(7));
        QCOMPARE(c.runId(), qint64(7));
        QCOMPARE(countKind(events, EventKind::RunStarted), 1);
        QCOMPARE(countKind(events, EventKind::EpochEnd), 3);
        QCOMPARE(countKind(events, EventKind::Finished), 1);
        QCOMPARE(charted.size(), std::size_t(45));  // every step reaches the charts, in order
        for (std::size_t i = 0; i < charted.size(); ++i) QCOMPARE(charted[i], std::int64_t(i + 1));
        QCOMPARE(epochsLast, (lf::Metrics{{"loss", 0.5}, {"accuracy", 0.6}}));  // the epoch's training metrics
        QCOMPARE(ckpts.size(), 3);
        QCOMPARE(ckpts[2][0].toLongLong(), qint64(103));
        QCOMPARE(panel.progress()->bar()->value(), 45);
        QCOMPARE(panel.progress()->ranksText(), QLocale().toString(5012.0, 'f', 0).prepend("2 processes: ") + " + " +
                                                    QLocale().toString(4987.0, 'f', 0) + " img/s");
        QCOMPARE(weights.size(), 1);
        QCOMPARE(QByteArray::fromStdString(session.weights()), QByteArray("trained weights"));
        QCOMPARE(session.weightsOrigin(), QString("run 7"));
        QCOMPARE(doc.project().dataset.classes, (std::vector<std::string>{"dark", "light", "mid"}));
        // The command the page built: two processes of the CLI training this project's file.
        const QStringList args = read(fake_ + "/args").split('\n', Qt::SkipEmptyParts);
        QCOMPARE(args.mid(0, 2), (QStringList{"-np", "2"}));
        const qsizetype train = args.indexOf("train");
        QVERIFY(train > 0);
        QCOMPARE(args[train + 1], project_);
        QVERIFY(args.contains("--distributed") && args.contains("--json"));
        QVERIFY(!c.isJob());
        // The class list made the document differ from the file the next job would read.
        QVERIFY(doc.isModified());
        QVERIFY(!panel.startButton()->isEnabled());
        QVERIFY(panel.blockedReason()->text().contains("save the project first"));
    }

    void failedJobShowsTheRankNotOpenMpisBanner() {
        QVERIFY(write(fake_ + "/out.jsonl", R"({"event":"run","run":9,"store":"x.lfruns"})" "\n"));
        QVERIFY(write(fake_ + "/err.txt",
                      "rank 1 (host vm): images/train/dark/3.png: not a PNG file; remove it or replace it\n"
                      "--------------------------------------------------------------------------\n"
                      "MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD\n"
                      "with errorcode 1.\n"
                      "NOTE: invoking MPI_ABORT causes Open MPI to kill all MPI processes.\n"
                      "--------------------------------------------------------------------------\n"));
        qputenv("LF_FAKE_MODE", "fail");
        ProjectDocument doc;
        setUp(doc);
        StudioSession session(&doc);
        QMainWindow window;
        auto* panel = new TrainingPanel(&session);
        window.setCentralWidget(panel);
        const MessageViews views = installMessageViews(&window, panel->controller());
        QSignalSpy finished(panel->controller(), &TrainingController::finished);
        panel->startButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), lf::RunStatus::Failed);
        QCOMPARE(views.banner->message(),
                 QString("Training failed: rank 1 (host vm): images/train/dark/3.png: not a PNG file; remove it or replace it"));
        QCOMPARE(panel->controller()->runId(), qint64(9));
        QCOMPARE(panel->progress()->bar()->format(), QString("failed"));
    }

    void failedJobWithoutRankLinesSaysWhatTheCliSaid() {
        QVERIFY(write(fake_ + "/out.jsonl", R"({"event":"error","kind":"input","message":"job.lfproj: dataset folder not found"})" "\n"));
        QVERIFY(write(fake_ + "/err.txt", "error: job.lfproj: dataset folder not found\n"));
        qputenv("LF_FAKE_MODE", "fail");
        ProjectDocument doc;
        setUp(doc);
        StudioSession session(&doc);
        TrainingPanel panel(&session);
        QSignalSpy failed(panel.controller(), &TrainingController::failed);
        panel.startButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
        QCOMPARE(failed[0][0].toString(), QString("job.lfproj: dataset folder not found"));
    }

    // Stop asks mpirun for a clean stop (SIGUSR1, which it forwards to the ranks): the ranks
    // report the stop, finish up and print their result, and the run ends "stopped" with its
    // weights, as a single-process Stop.
    void stopIsACleanStopWithWeights() {
        QVERIFY(write(fake_ + "/out.jsonl", R"({"event":"run","run":4,"store":"x.lfruns"})" "\n" + step(1) + step(2)));
        QVERIFY(write(fake_ + "/weights.safetensors", "stopped weights"));
        QVERIFY(write(fake_ + "/stopped.jsonl",
                      R"({"event":"stopped","epoch":1,"epochs":3,"step":3,"steps_per_epoch":15,"total_steps":45,)"
                      R"("elapsed_seconds":1,"message":"stopped by request at epoch 1, step 3"})" "\n" +
                          (R"({"event":"result","status":"stopped","message":"stopped by request at epoch 1, step 3",)"
                           R"("run":4,"test":{"loss":0.4},"weights":")" + fake_ + R"(/weights.safetensors"})").toUtf8() + "\n"));
        qputenv("LF_FAKE_MODE", "stop");
        DistributedJob::setGracePeriods(60000, 1000);  // the clean stop must not need the fallback
        ProjectDocument doc;
        setUp(doc);
        StudioSession session(&doc);
        TrainingPanel panel(&session);
        fast(*panel.controller());
        QSignalSpy started(panel.controller(), &TrainingController::started),
            finished(panel.controller(), &TrainingController::finished);
        panel.startButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(started.size(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.progress()->ranksText().isEmpty(), 5000);  // the job printed its steps
        QVERIFY(!panel.pauseButton()->isEnabled());
        QVERIFY(panel.pauseButton()->toolTip().contains("cannot pause"));
        panel.stopButton()->click();
        QCOMPARE(panel.controller()->state(), TrainingController::State::Stopping);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), lf::RunStatus::Stopped);
        QCOMPARE(finished[0][1].toString(), QString("stopped by request at epoch 1, step 3"));
        QCOMPARE(read(fake_ + "/signal").trimmed(), QString("USR1"));  // no SIGINT after it
        QCOMPARE(panel.controller()->runId(), qint64(4));
        QCOMPARE(QByteArray::fromStdString(session.weights()), QByteArray("stopped weights"));
        QCOMPARE(session.weightsOrigin(), QString("run 4"));
    }

    // Ranks that do not take the clean stop within the grace period are ended by force: SIGINT
    // to mpirun, and the run keeps its last checkpoint.
    void stopForcesAJobThatDoesNotStop() {
        QVERIFY(write(fake_ + "/out.jsonl", R"({"event":"run","run":4,"store":"x.lfruns"})" "\n" + step(1) + step(2)));
        qputenv("LF_FAKE_MODE", "hang");
        DistributedJob::setGracePeriods(300, 5000);
        ProjectDocument doc;
        setUp(doc);
        StudioSession session(&doc);
        TrainingPanel panel(&session);
        fast(*panel.controller());
        QSignalSpy started(panel.controller(), &TrainingController::started),
            finished(panel.controller(), &TrainingController::finished), lines(panel.controller(), &TrainingController::logLine);
        panel.startButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(started.size(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.progress()->ranksText().isEmpty(), 5000);
        panel.stopButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);  // well within the kill's grace period
        QCOMPARE(finished[0][0].value<lf::RunStatus>(), lf::RunStatus::Stopped);
        QCOMPARE(finished[0][1].toString(), QString("stopped: the processes were ended; the run keeps its last checkpoint"));
        QCOMPARE(read(fake_ + "/signal").split('\n', Qt::SkipEmptyParts), (QStringList{"USR1", "INT"}));
        bool said = false;
        for (const auto& l : lines) said = said || l.at(0).toString().contains("did not stop within");
        QVERIFY(said);
        QCOMPARE(panel.controller()->runId(), qint64(4));
        QVERIFY(!session.hasWeights());
    }

    void closingTheStudioEndsTheJob() {
        QVERIFY(write(fake_ + "/out.jsonl", R"({"event":"run","run":5,"store":"x.lfruns"})" "\n"));
        qputenv("LF_FAKE_MODE", "hang");
        ProjectDocument doc;
        setUp(doc);
        StudioSession session(&doc);
        auto* panel = new TrainingPanel(&session);
        QSignalSpy started(panel->controller(), &TrainingController::started);
        panel->startButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(started.size(), 1, 10000);
        const pid_t pid = read(fake_ + "/pid").trimmed().toInt();
        QVERIFY(pid > 0);
        QCOMPARE(::kill(pid, 0), 0);
        delete panel;  // as the main window goes
        QCOMPARE(read(fake_ + "/signal").trimmed(), QString("TERM"));
        QVERIFY(::kill(pid, 0) != 0);  // gone, and reaped
    }
};

QTEST_MAIN(TestDistributedJob)
#include "test_distributed_job.moc"
