// The MPI transport under a real launcher: each case starts `mpirun -np N lf_mpi_worker MODE`
// (tests/distributed/mpi_worker.cpp) and reads how the job ended. The sums and the averaged
// gradient of a split batch are checked by the ranks; a rank that hangs or dies must end the
// whole job within 30 s, with a message naming it and its host.
#include <QElapsedTimer>
#include <QtTest>

#include "mpi_environment.h"

namespace {

struct Job {
    int code = -1;  // -1: did not end by itself
    QString out, err;
    double seconds = 0;
};

Job mpirun(int ranks, const QStringList& args, int limit_ms = 90000) {
    QProcess p;
    p.setProcessEnvironment(mpiEnvironment());
    QElapsedTimer clock;
    clock.start();
    p.start("mpirun", QStringList{"-np", QString::number(ranks), qEnvironmentVariable("LF_MPI_WORKER")} + args);
    if (!p.waitForFinished(limit_ms)) {
        p.kill();
        p.waitForFinished();
        return {-1, p.readAllStandardOutput(), p.readAllStandardError(), clock.elapsed() / 1000.0};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError(), clock.elapsed() / 1000.0};
}

}  // namespace

class TestMpiCollectives : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        // Skipped only where Open MPI is not installed at all: with mpirun there and no module,
        // the build missed libopenmpi-dev (scripts/setup.sh installs both), which is a defect.
        const bool mpirun = !QStandardPaths::findExecutable("mpirun").isEmpty();
        if (qEnvironmentVariableIsEmpty("LF_MPI_WORKER") && !mpirun)
            QSKIP("Open MPI is not installed (scripts/setup.sh installs openmpi-bin and libopenmpi-dev)");
        QVERIFY2(!qEnvironmentVariableIsEmpty("LF_MPI_WORKER"), "mpirun is installed but this build has no MPI module: "
                                                            "install libopenmpi-dev and configure again");
        QVERIFY2(mpirun, "this build has an MPI module but mpirun is not on PATH (apt install openmpi-bin)");
    }

    void sums_and_broadcasts() {
        for (int n : {1, 2, 3}) {
            const Job j = mpirun(n, {"sums"});
            QVERIFY2(j.code == 0, qPrintable(QString("%1 ranks: ").arg(n) + j.err));
        }
    }

    void split_batch_gives_the_whole_batch_gradient() {
        for (int n : {2, 3}) {
            const Job j = mpirun(n, {"gradients"});
            QVERIFY2(j.code == 0, qPrintable(QString("%1 ranks: ").arg(n) + j.err));
        }
    }

    void a_hung_rank_ends_the_job_naming_it() {
        const Job j = mpirun(2, {"hang", "2"});
        QVERIFY2(j.code != 0 && j.code != -1, qPrintable(j.err));
        const QString host = QSysInfo::machineHostName();
        QVERIFY2(j.err.contains("rank 0 (host " + host + "): rank 1 (host " + host +
                                ") did not reach the test's sum of step 3 within 2 s and does not answer"),
                 qPrintable(j.err));
        QVERIFY2(j.seconds < 30, qPrintable(QString::number(j.seconds)));
    }

    void a_dead_rank_ends_the_job_naming_it() {
        const Job j = mpirun(2, {"die", "20"});
        QVERIFY2(j.code != 0 && j.code != -1, qPrintable(j.err));
        // Open MPI's launcher sees the death first and says which rank it was.
        QVERIFY2(j.err.contains("rank 1") && j.err.contains("signal 9"), qPrintable(j.err));
        QVERIFY2(j.seconds < 30, qPrintable(QString::number(j.seconds)));
    }
};

QTEST_GUILESS_MAIN(TestMpiCollectives)
#include "test_mpi_collectives.moc"
