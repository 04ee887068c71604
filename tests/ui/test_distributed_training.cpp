// End to end: the Train page with Processes = 2 starts a real job (Open MPI's mpirun, two
// layerforge-cli ranks) on a tiny generated image folder; the run reaches the dashboard
// (progress, every step for the charts, each rank's rate, checkpoints, weights) and the
// project's run store holds exactly one run, finished. Stop on such a job is a clean stop: the
// ranks stop at the same step and finish up, and the run ends "stopped" with its weights, as a
// single-process Stop.
#include <QPushButton>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "document/project_document.h"
#include "layerforge/store/run_store.h"
#include "session/studio_session.h"
#include "training/mpi_command.h"
#include "training/training_panel.h"
#include "training/training_progress.h"
#include "image_folder_fixture.h"

using namespace lf;
using namespace lf::ui;

namespace {

// The Train page of `project`, saved as `path`, with Processes = 2 and every step reported.
struct TwoProcessPage {
    TwoProcessPage(Project project, const QString& path) : saved(prepare(std::move(project), path)) {
        c.setCliPath(qEnvironmentVariable("LF_CLI"));
        TrainingOptions o = c.options();
        o.eventIntervalMs = 0;
        c.setOptions(o);
    }
    ProjectDocument doc;
    QString error;
    const bool saved;
    StudioSession session{&doc};
    TrainingPanel panel{&session};
    TrainingController& c = *panel.controller();

private:
    bool prepare(Project project, const QString& path) {
        doc.reset(std::move(project), path);
        QSettings().setValue("train/processes", 2);
        return doc.saveAs(path, &error);
    }
};

}  // namespace

class TestDistributedTraining : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // mpirun refuses root without these; idle ranks yield the two cores to each other.
        qputenv("OMPI_ALLOW_RUN_AS_ROOT", "1");
        qputenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        qputenv("OMPI_MCA_mpi_yield_when_idle", "1");
        if (findMpirun().isEmpty()) QSKIP("Open MPI's mpirun is not installed (apt install openmpi-bin)");
        QVERIFY2(!qEnvironmentVariable("LF_CLI").isEmpty(), "LF_CLI is not set");
        writeImageFolder(dir_.filePath("images"));
    }

    void twoProcessJobReachesTheDashboardAndTheStore() {
        // 60 images, batch 4: 30 steps
        TwoProcessPage page(tinyImageProject(dir_.filePath("images"), 2), dir_.filePath("job.lfproj"));
        QVERIFY2(page.saved, qPrintable(page.error));
        TrainingController& c = page.c;
        TrainingPanel& panel = page.panel;
        StudioSession& session = page.session;
        QCOMPARE(c.options().processes, 2);

        QSignalSpy started(&c, &TrainingController::started), finished(&c, &TrainingController::finished),
            ckpts(&c, &TrainingController::checkpointSaved), rates(&c, &TrainingController::rankThroughput),
            lines(&c, &TrainingController::logLine);
        std::vector<std::int64_t> charted;
        connect(&c, &TrainingController::stepsLogged, this, [&](const std::vector<lf::TrainEvent>& steps) {
            for (const auto& e : steps) charted.push_back(e.step);
        });
        QVERIFY(panel.startButton()->isEnabled());
        panel.startButton()->click();
        QVERIFY(c.isJob());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        QString log;
        for (const auto& a : lines) log += a.at(0).toString() + '\n';
        QVERIFY2(finished[0][0].value<lf::RunStatus>() == lf::RunStatus::Finished,
                 qPrintable(finished[0][1].toString() + "\n" + log));
        QCOMPARE(started.size(), 1);
        const qint64 run = started[0][0].toLongLong();
        QVERIFY(run > 0);
        QString got;
        for (auto s : charted) got += QString::number(s) + ' ';
        QVERIFY2(charted.size() == 30, qPrintable("charted steps: " + got));  // every step, as in the studio
        QCOMPARE(charted.back(), std::int64_t(30));
        QCOMPARE(panel.progress()->bar()->value(), 30);
        QVERIFY(!rates.isEmpty());
        QCOMPARE(rates.last()[0].value<QList<double>>().size(), 2);
        QVERIFY(panel.progress()->ranksText().startsWith("2 processes: "));
        QVERIFY(ckpts.size() >= 2);  // one per epoch
        QVERIFY(session.hasWeights());
        QCOMPARE(session.weightsOrigin(), QString("run %1").arg(run));

        RunStore store(session.storePath().toStdString(), false);
        const auto runs = store.runs();
        QCOMPARE(runs.size(), std::size_t(1));  // rank 0 alone records it
        QCOMPARE(runs[0].id, std::int64_t(run));
        QCOMPARE(runs[0].status, lf::RunStatus::Finished);
        QCOMPARE(store.checkpoints(run).back().step, std::int64_t(30));
    }

    void stopEndsTheJobStoppedWithWeights() {
        // 15 steps an epoch: for ever
        TwoProcessPage page(tinyImageProject(dir_.filePath("images"), 100000), dir_.filePath("stop.lfproj"));
        QVERIFY2(page.saved, qPrintable(page.error));
        TrainingController& c = page.c;
        TrainingPanel& panel = page.panel;
        StudioSession& session = page.session;

        QSignalSpy started(&c, &TrainingController::started), finished(&c, &TrainingController::finished),
            lines(&c, &TrainingController::logLine);
        std::int64_t charted = 0;
        connect(&c, &TrainingController::stepsLogged, this, [&](const std::vector<lf::TrainEvent>& steps) {
            if (!steps.empty()) charted = steps.back().step;
        });
        panel.startButton()->click();
        QVERIFY(c.isJob());
        QTRY_VERIFY_WITH_TIMEOUT(charted >= 3, 120000);  // the ranks are training
        panel.stopButton()->click();
        QCOMPARE(c.state(), TrainingController::State::Stopping);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);  // within the clean stop's grace
        QString log;
        for (const auto& a : lines) log += a.at(0).toString() + '\n';
        QVERIFY2(finished[0][0].value<lf::RunStatus>() == lf::RunStatus::Stopped, qPrintable(finished[0][1].toString() + "\n" + log));
        // The message a single-process Stop gives, not the forced end's.
        QVERIFY2(finished[0][1].toString().startsWith("stopped by request at epoch "), qPrintable(finished[0][1].toString()));
        QVERIFY2(!log.contains("did not stop within"), qPrintable(log));
        const qint64 run = started[0][0].toLongLong();
        QVERIFY(session.hasWeights());
        QCOMPARE(session.weightsOrigin(), QString("run %1").arg(run));
        RunStore store(session.storePath().toStdString(), false);
        QCOMPARE(store.runs().size(), std::size_t(1));
        QCOMPARE(store.run(run).status, lf::RunStatus::Stopped);
        QVERIFY(store.checkpoints(run).back().step >= 3);  // the end-of-run checkpoint, at the stop
        QVERIFY(QFile::exists(dir_.filePath("stop.weights.safetensors")));
    }
};

QTEST_MAIN(TestDistributedTraining)
#include "test_distributed_training.moc"
