// End to end: the Train page with Processes = 2 starts a real job (Open MPI's mpirun, two
// layerforge-cli ranks) on a tiny generated image folder; the run reaches the dashboard
// (progress, every step for the charts, each rank's rate, checkpoints, weights) and the
// project's run store holds exactly one run, finished.
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
        const QString path = dir_.filePath("job.lfproj");
        ProjectDocument doc;
        doc.reset(tinyImageProject(dir_.filePath("images"), 2), path);  // 60 images, batch 4: 30 steps
        QString error;
        QVERIFY2(doc.saveAs(path, &error), qPrintable(error));
        QSettings().setValue("train/processes", 2);
        StudioSession session(&doc);
        TrainingPanel panel(&session);
        TrainingController& c = *panel.controller();
        c.setCliPath(qEnvironmentVariable("LF_CLI"));
        TrainingOptions o = c.options();
        o.eventIntervalMs = 0;
        c.setOptions(o);
        QCOMPARE(o.processes, 2);

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
};

QTEST_MAIN(TestDistributedTraining)
#include "test_distributed_training.moc"
