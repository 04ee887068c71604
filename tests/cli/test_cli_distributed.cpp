// `mpirun -np N layerforge-cli train --distributed` against one process with the same global
// batch, on a slice of Fashion-MNIST (the tutorial MLP, also with Dropout): the same logged
// losses, the same test accuracy, one run in the store; a checkpoint of a 2-process run resumed
// with 1 and with 2 processes; a sweep's trials placed on the ranks; SIGUSR1 to mpirun stopping
// both ranks at the same step with the run's weights; and a rank killed or hung mid-run ending
// the job within 30 s, the run then reading as interrupted and continuing with --resume.
#include <QElapsedTimer>
#include <QtTest>

#include <csignal>
#include <fstream>

#include "cli_runner.h"
#include "mpi_environment.h"
#include "layerforge/store/run_store.h"
#include "run_status_text.h"

namespace {

// An odd global batch (24 + 25 rows) and an uneven last batch (21: 10 + 11).
const QStringList kData{"--limit-train", "1001", "--limit-test", "300", "--batch-size", "49", "--json"};

QStringList mpirunArgs(int ranks, const QStringList& args) {
    return QStringList{"-np", QString::number(ranks), qEnvironmentVariable("LF_CLI")} + args + QStringList{"--distributed"};
}

CliRun mpiCli(int ranks, const QStringList& args) {
    QProcess p;
    p.setProcessEnvironment(mpiEnvironment());
    p.start("mpirun", mpirunArgs(ranks, args));
    if (!p.waitForFinished(240000)) p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// The loss of every logged step, by step number.
std::map<std::int64_t, double> stepLosses(const CliRun& r) {
    std::map<std::int64_t, double> out;
    for (const auto& j : r.lines())
        if (j.value("event", "") == "step") out[j["step"].get<std::int64_t>()] = j["metrics"]["loss"].get<double>();
    return out;
}

double testAccuracy(const CliRun& r) {
    for (const auto& j : r.lines())
        if (j.value("event", "") == "result") return j["test"]["accuracy"].get<double>();
    return -1;
}

// The first `count` losses of `got` from step `first` on equal `want`'s within 1e-3 relative.
void compareLosses(const std::map<std::int64_t, double>& got, const std::map<std::int64_t, double>& want,
                   std::int64_t first, int count) {
    for (std::int64_t s = first; s < first + count; ++s) {
        QVERIFY2(got.count(s) && want.count(s), qPrintable(QString("step %1 was not logged").arg(s)));
        const double a = got.at(s), b = want.at(s);
        QVERIFY2(std::abs(a - b) <= 1e-3 * std::abs(b), qPrintable(QString("step %1: loss %2 vs %3").arg(s).arg(a).arg(b)));
    }
}

// The pid of `rank` among the processes mpirun started, from their environment.
qint64 rankPid(qint64 mpirun, int rank) {
    const QString want = QString("OMPI_COMM_WORLD_RANK=%1").arg(rank);
    for (const QString& d : QDir("/proc").entryList(QDir::Dirs)) {
        bool number = false;
        const qint64 pid = d.toLongLong(&number);
        if (!number) continue;
        std::ifstream stat(("/proc/" + d + "/stat").toStdString());
        std::string line;
        std::getline(stat, line);
        const auto close = line.rfind(')');
        if (close == std::string::npos) continue;
        qint64 parent = 0;
        std::sscanf(line.c_str() + close + 2, "%*c %lld", &parent);
        if (parent != mpirun) continue;
        QFile env("/proc/" + d + "/environ");
        if (env.open(QIODevice::ReadOnly) && env.readAll().split('\0').contains(want.toUtf8())) return pid;
    }
    return 0;
}

}  // namespace

class TestCliDistributed : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        // Skipped only where Open MPI is not installed at all: with mpirun there and no module,
        // the build missed libopenmpi-dev (scripts/setup.sh installs both), which is a defect.
        const bool mpirun = !QStandardPaths::findExecutable("mpirun").isEmpty();
        if (qEnvironmentVariableIsEmpty("LF_MPI_MODULE") && !mpirun)
            QSKIP("Open MPI is not installed (scripts/setup.sh installs openmpi-bin and libopenmpi-dev)");
        QVERIFY2(!qEnvironmentVariableIsEmpty("LF_MPI_MODULE"), "mpirun is installed but this build has no MPI module: "
                                                            "install libopenmpi-dev and configure again");
        QVERIFY2(mpirun, "this build has an MPI module but mpirun is not on PATH (apt install openmpi-bin)");
    }

    void two_processes_follow_one_process() {
        const QString one = mlpProjectCopy(dir_, "one"), two = mlpProjectCopy(dir_, "two");
        const QStringList train{"train", "--epochs", "1", "--log-every", "1"};
        const CliRun a = cli(QStringList{"train", one, "--epochs", "1", "--log-every", "1"} + kData);
        QVERIFY2(a.code == 0, qPrintable(a.err));
        const CliRun b = mpiCli(2, QStringList{"train", two, "--epochs", "1", "--log-every", "1"} + kData);
        QVERIFY2(b.code == 0, qPrintable(b.out + b.err));
        compareLosses(stepLosses(b), stepLosses(a), 1, 20);
        // 1001 / 49: 21 steps, the last one split 10 + 11 (its loss is in the epoch's end, not a step event).
        QCOMPARE(stepLosses(b).size(), std::size_t(20));
        QCOMPARE(b.lines().back()["steps"].get<int>(), 21);
        QVERIFY2(std::abs(testAccuracy(b) - testAccuracy(a)) <= 0.01,
                 qPrintable(QString("test accuracy %1 vs %2").arg(testAccuracy(b)).arg(testAccuracy(a))));
        // Rank 0 alone printed: one result, and each step shows both ranks' rates.
        int results = 0;
        for (const auto& j : b.lines()) {
            if (j.value("event", "") == "result") ++results;
            if (j.value("event", "") == "step") QCOMPARE(j["rank_images_per_second"].size(), std::size_t(2));
        }
        QCOMPARE(results, 1);
        lf::RunStore store(lf::RunStore::path_for_project(two.toStdString()));
        const std::vector<lf::RunInfo> runs = store.runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].status, lf::RunStatus::Finished);
        const auto settings = nlohmann::json::parse(runs[0].settings);
        QCOMPARE(settings["distributed"]["processes"].get<int>(), 2);
        QCOMPARE(settings["distributed"]["hosts"].size(), std::size_t(2));
        QVERIFY(QFile::exists(dir_.filePath("two.weights.safetensors")));
    }

    void a_checkpoint_resumes_with_one_or_two_processes() {
        const QString ref = mlpProjectCopy(dir_, "ref"), run = mlpProjectCopy(dir_, "resumed");
        const CliRun whole = cli(QStringList{"train", ref, "--epochs", "2", "--log-every", "1"} + kData);
        QVERIFY2(whole.code == 0, qPrintable(whole.err));
        const CliRun first = mpiCli(2, QStringList{"train", run, "--epochs", "1", "--log-every", "1"} + kData);
        QVERIFY2(first.code == 0, qPrintable(first.out + first.err));
        // The end-of-epoch checkpoint (step 21) continued by one process, then again by two.
        const CliRun by_one = cli(QStringList{"train", run, "--epochs", "2", "--log-every", "1", "--resume", "ckpt-21"} + kData);
        QVERIFY2(by_one.code == 0, qPrintable(by_one.err));
        compareLosses(stepLosses(by_one), stepLosses(whole), 22, 20);
        const CliRun by_two =
            mpiCli(2, QStringList{"train", run, "--epochs", "2", "--log-every", "1", "--resume", "ckpt-21"} + kData);
        QVERIFY2(by_two.code == 0, qPrintable(by_two.out + by_two.err));
        compareLosses(stepLosses(by_two), stepLosses(whole), 22, 20);
        QVERIFY2(std::abs(testAccuracy(by_two) - testAccuracy(whole)) <= 0.01, qPrintable(by_two.out));
        lf::RunStore store(lf::RunStore::path_for_project(run.toStdString()));
        QCOMPARE(store.runs().size(), std::size_t(1));
        QCOMPARE(store.runs()[0].status, lf::RunStatus::Finished);
    }

    // With Dropout each rank draws the masks of its rows of the global batch, so two processes
    // still follow one. 1028 = 20 x 49 + 48: rank 0 holds 24 rows of a full batch and 24 of
    // the last, whose masks count steps apart (one per epoch), so the second epoch shows it.
    void dropout_follows_one_process() {
        const QString one = dropoutMlpCopy("dropout_one"), two = dropoutMlpCopy("dropout_two");
        const QStringList data{"--limit-train", "1028", "--limit-test", "300", "--batch-size", "49", "--json"};
        const QStringList train{"--epochs", "2", "--log-every", "1"};
        const CliRun a = cli(QStringList{"train", one} + train + data);
        QVERIFY2(a.code == 0, qPrintable(a.err));
        const CliRun b = mpiCli(2, QStringList{"train", two} + train + data);
        QVERIFY2(b.code == 0, qPrintable(b.out + b.err));
        compareLosses(stepLosses(b), stepLosses(a), 1, 20);
        compareLosses(stepLosses(b), stepLosses(a), 22, 20);
        QVERIFY2(std::abs(testAccuracy(b) - testAccuracy(a)) <= 0.01,
                 qPrintable(QString("test accuracy %1 vs %2").arg(testAccuracy(b)).arg(testAccuracy(a))));
    }

    // A sweep's trials train side by side on the ranks, into the one store: rank 0 takes trials
    // 1 and 3, rank 1 trials 2 and 4, and rank 0 lists all four once they are done.
    void sweep_trials_train_on_the_ranks() {
        const QString project = mlpProjectCopy(dir_, "sweep");
        const CliRun r = mpiCli(2, {"sweep", project, "--grid", "learning_rate=1e-3,1e-2", "batch_size=50,100", "--epochs",
                                    "1", "--name", "side-by-side", "--limit-train", "300", "--limit-test", "100",
                                    "--log-every", "1000"});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("trial 1/4 ") && r.out.contains("trial 3/4 "), qPrintable(r.out));
        QVERIFY2(!r.out.contains("trial 2/4 ") && !r.out.contains("trial 4/4 "), qPrintable(r.out));  // rank 1's
        QVERIFY2(r.out.contains("best: trial "), qPrintable(r.out));
        lf::RunStore store(lf::RunStore::path_for_project(project.toStdString()));
        QCOMPARE(store.runs().size(), std::size_t(4));
        const std::optional<lf::SweepInfo> s = store.sweep("side-by-side");
        QVERIFY(s);
        for (const lf::SweepTrial& t : s->trials) {
            QCOMPARE(t.status, std::string("finished"));
            QCOMPARE(store.run(t.run).status, lf::RunStatus::Finished);
        }
    }

    // SIGUSR1 to mpirun, as the studio's Stop sends it: mpirun forwards it to both ranks, which
    // stop at the same step (a stop request travels in the step's sum) and finish up together,
    // so the run reads "stopped" with its end-of-run checkpoint, test metrics and weights, the
    // job exits 3 (rank 0's code) without a rank dying or hanging, and --resume continues it.
    void sigusr1_stops_every_rank_at_the_same_step() {
        const QString project = mlpProjectCopy(dir_, "usr1");
        QProcess job;
        job.setProcessEnvironment(mpiEnvironment());
        job.start("mpirun", mpirunArgs(2, QStringList{"train", project, "--epochs", "1000", "--log-every", "1"} + kData));
        QVERIFY(job.waitForStarted());
        QByteArray out;
        QElapsedTimer wait;
        wait.start();
        while (!out.contains("\"event\":\"step\"") && wait.elapsed() < 120000 && job.state() == QProcess::Running) {
            job.waitForReadyRead(200);
            out += job.readAllStandardOutput();
        }
        QVERIFY2(out.contains("\"event\":\"step\""), qPrintable(QString(out) + job.readAllStandardError()));
        QElapsedTimer ending;
        ending.start();
        ::kill(pid_t(job.processId()), SIGUSR1);
        if (!job.waitForFinished(120000)) {
            job.kill();
            job.waitForFinished();
            QFAIL(qPrintable("the job did not end after SIGUSR1\n" + job.readAllStandardError()));
        }
        QVERIFY2(ending.elapsed() < 60000, qPrintable(QString("the stop took %1 s").arg(ending.elapsed() / 1000.0)));
        const CliRun r{job.exitCode(), out + job.readAllStandardOutput(), job.readAllStandardError()};
        QVERIFY2(job.exitStatus() == QProcess::NormalExit && r.code == 3, qPrintable(QString("exit %1\n").arg(r.code) + r.err));
        QCOMPARE(r.err.count("SIGUSR1: stopping after this step"), 1);  // rank 0 alone says it
        QVERIFY2(!r.err.contains("rank 1 (host") && !r.err.contains("MPI_ABORT") && !r.err.contains("exited on signal"),
                 qPrintable(r.err));
        nlohmann::json stopped, result;
        for (const auto& j : r.lines()) {
            if (j.value("event", "") == "stopped") stopped = j;
            if (j.value("event", "") == "result") result = j;
        }
        QVERIFY2(!stopped.is_null() && !result.is_null(), qPrintable(r.out.right(2000)));
        const std::int64_t step = stopped["step"].get<std::int64_t>(), epoch = stopped["epoch"].get<std::int64_t>();
        QCOMPARE(result["status"].get<std::string>(), std::string("stopped"));
        QCOMPARE(result["steps"].get<std::int64_t>(), step);
        QCOMPARE(result["test_samples"].get<int>(), 300);  // both ranks ran the test pass
        QVERIFY(QFileInfo(QString::fromStdString(result["weights"].get<std::string>())).size() > 0);
        {
            lf::RunStore store(lf::RunStore::path_for_project(project.toStdString()));
            QCOMPARE(store.runs().size(), std::size_t(1));
            QCOMPARE(store.runs()[0].status, lf::RunStatus::Stopped);
            QCOMPARE(store.checkpoints(store.runs()[0].id).back().step, step);
        }
        const CliRun resumed = mpiCli(2, QStringList{"train", project, "--epochs", QString::number(epoch + 1), "--resume",
                                                     "--log-every", "100"} + kData);
        QVERIFY2(resumed.code == 0, qPrintable(resumed.out + resumed.err));
        lf::RunStore store(lf::RunStore::path_for_project(project.toStdString()));
        QCOMPARE(store.runs().size(), std::size_t(1));
        QCOMPARE(store.runs()[0].status, lf::RunStatus::Finished);
        QCOMPARE(store.checkpoints(store.runs()[0].id).back().step, (epoch + 1) * 21);
    }

    void a_killed_rank_ends_the_job_and_the_run_resumes() { lostRank(SIGKILL, "signal 9"); }
    void a_hung_rank_ends_the_job_and_the_run_resumes() { lostRank(SIGSTOP, "does not answer"); }

private:
    // The tutorial MLP with Dropout(0.3) between its Dense layers.
    QString dropoutMlpCopy(const QString& name) {
        const QString path = mlpProjectCopy(dir_, name);
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) return path;
        nlohmann::json p = nlohmann::json::parse(f.readAll().toStdString());
        f.close();
        auto& nodes = p["model"]["nodes"];
        nodes.push_back({{"id", "dropout"}, {"type", "Dropout"}, {"name", "dropout"}, {"params", {{"rate", 0.3}}},
                         {"position", {650, 100}}});
        for (auto& e : p["model"]["edges"])
            if (e["from"] == "dense:0" && e["to"] == "dense_1:0") e["from"] = "dropout:0";
        p["model"]["edges"].push_back({{"from", "dense:0"}, {"to", "dropout:0"}});
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write(QByteArray::fromStdString(p.dump(2)));
        return path;
    }

    // Starts a longer 2-process run, sends `sig` to rank 1 once a checkpoint is committed, and
    // checks that the job ends within 30 s saying `why`, that the run reads as interrupted with
    // its checkpoint kept, and that --resume finishes it.
    void lostRank(int sig, const QString& why) {
        const QString project = mlpProjectCopy(dir_, sig == SIGKILL ? "killed" : "hung");
        const QStringList args{"train", project, "--epochs", "3", "--log-every", "10", "--checkpoint-every", "20",
                               "--rank-timeout", "5", "--limit-train", "6000", "--limit-test", "300", "--json"};
        QProcess job;
        job.setProcessEnvironment(mpiEnvironment());
        job.start("mpirun", mpirunArgs(2, args));
        QVERIFY(job.waitForStarted());
        QByteArray out;
        QElapsedTimer wait;
        wait.start();
        while (!out.contains("\"event\":\"checkpoint\"") && wait.elapsed() < 120000 && job.state() == QProcess::Running) {
            job.waitForReadyRead(200);
            out += job.readAllStandardOutput();
        }
        QVERIFY2(out.contains("\"event\":\"checkpoint\""), qPrintable(QString(out) + job.readAllStandardError()));
        const qint64 victim = rankPid(job.processId(), 1), leader = rankPid(job.processId(), 0);
        QVERIFY2(victim > 0 && leader > 0, "the ranks' processes were not found among mpirun's children");
        QElapsedTimer ending;
        ending.start();
        ::kill(pid_t(victim), sig);
        QVERIFY2(job.waitForFinished(60000), "the job did not end after rank 1 was lost");
        while (QFile::exists(QString("/proc/%1").arg(leader)) && ending.elapsed() < 60000) QTest::qWait(50);  // rank 0 too
        const double seconds = ending.elapsed() / 1000.0;
        const QString err = job.readAllStandardError();
        QVERIFY2(seconds < 30, qPrintable(QString("the job took %1 s to end").arg(seconds)));
        QVERIFY(job.exitStatus() != QProcess::NormalExit || job.exitCode() != 0);
        QVERIFY2(err.contains("rank 1") && err.contains(why), qPrintable(err));
        if (sig == SIGSTOP) ::kill(pid_t(victim), SIGKILL);  // in case the launcher left it stopped

        {
            lf::RunStore store(lf::RunStore::path_for_project(project.toStdString()));
            QCOMPARE(store.runs().size(), std::size_t(1));
            QCOMPARE(store.runs()[0].status, lf::RunStatus::Interrupted);
            QVERIFY(!store.checkpoints(store.runs()[0].id).empty());
        }
        const CliRun resumed = mpiCli(2, QStringList{"train", project, "--epochs", "3", "--resume", "--limit-train",
                                                     "6000", "--limit-test", "300", "--json", "--log-every", "100"});
        QVERIFY2(resumed.code == 0, qPrintable(resumed.out + resumed.err));
        QVERIFY(resumed.out.contains("\"event\":\"resume\""));
        lf::RunStore store(lf::RunStore::path_for_project(project.toStdString()));
        QCOMPARE(store.runs().size(), std::size_t(1));
        QCOMPARE(store.runs()[0].status, lf::RunStatus::Finished);
    }
};

QTEST_GUILESS_MAIN(TestCliDistributed)
#include "test_cli_distributed.moc"
