// Ctrl-C and SIGTERM to `layerforge-cli train` (one process): the run stops after its step, as
// the studio's Stop does: it writes its end-of-run checkpoint, runs the test pass, saves the
// weights and reads "stopped" in the store; the command exits 3 (the CLI's code for a stop by a
// signal) and `--resume` continues the run to its end. A second Ctrl-C quits at once. Every
// signal is sent once the run has printed a step, never after a guessed delay.
#include <QElapsedTimer>
#include <QtTest>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <functional>

#include "cli_runner.h"
#include "image_folder_fixture.h"
#include "layerforge/project/project.h"
#include "layerforge/store/run_store.h"

extern char** environ;

using nlohmann::json;

namespace {

constexpr int kStoppedExitCode = 3;  // app/cli/stop_signals.h
constexpr int kStepsPerEpoch = 15;   // 60 images, batch 4

json eventOf(const CliRun& r, const char* event) {
    for (const json& j : r.lines())
        if (j.value("event", "") == event) return j;
    return json();
}

// Starts `train PROJECT --json --log-every 1` plus `extra`, sends `sig` once a step has been
// printed (after `before_signal` looked at the process) and waits (at most 60 s) for it to end.
CliRun trainThenSignal(const QString& project, int sig, const QStringList& extra = {},
                       const std::function<void(pid_t)>& before_signal = {},
                       const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("LF_CLI"), QStringList{"train", project, "--json", "--log-every", "1"} + extra);
    if (!p.waitForStarted()) return {};
    QByteArray out;
    QElapsedTimer wait;
    wait.start();
    while (!out.contains("\"event\":\"step\"") && p.state() == QProcess::Running && wait.elapsed() < 60000) {
        p.waitForReadyRead(100);
        out += p.readAllStandardOutput();
    }
    if (out.contains("\"event\":\"step\"")) {
        if (before_signal) before_signal(pid_t(p.processId()));
        ::kill(pid_t(p.processId()), sig);
    }
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return {-1, out + p.readAllStandardOutput(), "the process did not end within 60 s of the signal\n" + p.readAllStandardError()};
    }
    out += p.readAllStandardOutput();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, out, p.readAllStandardError()};
}

QString readAll(int fd) {
    QByteArray text;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) text.append(buf, n);
    return QString::fromUtf8(text);
}

// The thread ids of `pid` whose signal mask does not block `sig` (from /proc: SigBlk).
QStringList threadsTaking(pid_t pid, int sig) {
    QStringList taking;
    const QDir tasks(QString("/proc/%1/task").arg(pid));
    for (const QString& tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile f(tasks.filePath(tid + "/status"));
        if (!f.open(QIODevice::ReadOnly)) continue;
        for (const QByteArray& line : f.readAll().split('\n'))
            if (line.startsWith("SigBlk:") && !(line.mid(7).trimmed().toULongLong(nullptr, 16) & (1ull << (sig - 1))))
                taking << tid;
    }
    return taking;
}

// Whether a thread of `pid` sits in write(1, ...): its standard output is full.
bool writingStdout(pid_t pid) {
    const QDir tasks(QString("/proc/%1/task").arg(pid));
    for (const QString& tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile f(tasks.filePath(tid + "/syscall"));
        if (f.open(QIODevice::ReadOnly) && f.readAll().startsWith("1 0x1 ")) return true;
    }
    return false;
}

}  // namespace

class TestCliStop : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString images_;

    // A tiny image project (15 steps an epoch) that would train for a very long time.
    QString project(const QString& name) {
        const QString path = dir_.filePath(name + ".lfproj");
        lf::save_project(tinyImageProject(images_, 100000), path.toStdString());
        return path;
    }

    // The run `r` stopped cleanly at the step of its Stopped event: exit code, lines, result,
    // store, checkpoint and weights; then --resume trains it to the end of the next epoch.
    void checkStoppedAndResume(const QString& path, const CliRun& r, const QString& line) {
        QVERIFY2(r.code == kStoppedExitCode, qPrintable(QString("exit code %1\n").arg(r.code) + r.err));
        QVERIFY2(r.err.contains(line), qPrintable(r.err));
        QCOMPARE(r.err.count("stopping after this step"), 1);
        const json stopped = eventOf(r, "stopped"), result = eventOf(r, "result");
        QVERIFY2(!stopped.is_null() && !result.is_null(), qPrintable(r.out.right(2000)));
        const std::int64_t step = stopped["step"].get<std::int64_t>(), epoch = stopped["epoch"].get<std::int64_t>();
        QVERIFY(step >= 1);
        QVERIFY2(QString::fromStdString(stopped.value("message", "")).startsWith("stopped by request at epoch"),
                 stopped.dump().c_str());
        QCOMPARE(result["status"].get<std::string>(), std::string("stopped"));
        QCOMPARE(result["test_samples"].get<int>(), 12);  // the test pass ran
        const QString weights = QString::fromStdString(result["weights"].get<std::string>());
        QVERIFY2(QFileInfo(weights).size() > 0, qPrintable(weights));
        QVERIFY(r.out.contains("\"event\":\"checkpoint\""));
        const std::int64_t run = result["run"].get<std::int64_t>();
        {
            lf::RunStore store(lf::RunStore::path_for_project(path.toStdString()));
            QCOMPARE(store.runs().size(), std::size_t(1));
            QCOMPARE(store.run(run).status, lf::RunStatus::Stopped);
            const auto saved = store.checkpoints(run);
            QVERIFY(!saved.empty());
            QCOMPARE(saved.back().step, step);  // the end-of-run checkpoint, at the stop
        }
        // --resume continues the same run from there to the end of the next epoch.
        const CliRun resumed = cli({"train", path, "--resume", "--epochs", QString::number(epoch + 1), "--json",
                                    "--log-every", "1000"});
        QVERIFY2(resumed.code == 0, qPrintable(resumed.err));
        QVERIFY(!eventOf(resumed, "resume").is_null());
        QCOMPARE(eventOf(resumed, "result")["run"].get<std::int64_t>(), run);
        lf::RunStore store(lf::RunStore::path_for_project(path.toStdString()));
        QCOMPARE(store.runs().size(), std::size_t(1));
        QCOMPARE(store.run(run).status, lf::RunStatus::Finished);
        QCOMPARE(store.checkpoints(run).back().step, (epoch + 1) * kStepsPerEpoch);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        images_ = dir_.filePath("images");
        writeImageFolder(images_);
    }

    void ctrlCStopsTheRunCleanly() {
        const QString path = project("int");
        const CliRun r = trainThenSignal(path, SIGINT);
        checkStoppedAndResume(path, r, "stopping after this step (Ctrl-C again to quit at once)");
    }

    void sigtermStopsTheRunCleanly() {
        const QString path = project("term");
        const CliRun r = trainThenSignal(path, SIGTERM);
        checkStoppedAndResume(path, r, "SIGTERM: stopping after this step (send it again to quit at once)");
    }

    // oneDNN 2.6's GEMM kernels point rsp into the heap, so a handler run on a kernel thread
    // corrupts it (layerforge/core/kernel_thread_signals.h): the command's thread and the
    // threads it starts (two OpenMP workers, the store's writer) block the stop signals, which
    // reach the process on the watcher thread alone.
    void onlyTheWatcherTakesTheStopSignals() {
        const QString path = project("mask");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("OMP_NUM_THREADS", "2");
        int threads = 0;
        QStringList taking[3];
        const int sigs[3] = {SIGINT, SIGTERM, SIGUSR1};
        const CliRun r = trainThenSignal(path, SIGUSR1, {}, [&](pid_t pid) {
            threads = int(QDir(QString("/proc/%1/task").arg(pid)).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size());
            for (int i = 0; i < 3; ++i) taking[i] = threadsTaking(pid, sigs[i]);
        }, env);
        QVERIFY2(r.code == kStoppedExitCode, qPrintable(QString("exit code %1\n").arg(r.code) + r.err));
        QVERIFY2(threads >= 3, qPrintable(QString("%1 threads").arg(threads)));
        for (int i = 0; i < 3; ++i)
            QVERIFY2(taking[i].size() == 1, qPrintable(QString("signal %1 is taken by threads %2 of %3")
                                                          .arg(sigs[i]).arg(taking[i].join(' ')).arg(threads)));
        QCOMPARE(taking[0], taking[2]);
    }

    // A text-mode run says how to continue it.
    void textOutputNamesTheResume() {
        const QString path = project("text");
        QProcess p;
        p.start(qEnvironmentVariable("LF_CLI"), {"train", path, "--log-every", "1"});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        QElapsedTimer wait;
        wait.start();
        while (!out.contains("/100000  step ") && p.state() == QProcess::Running && wait.elapsed() < 60000) {
            p.waitForReadyRead(100);
            out += p.readAllStandardOutput();
        }
        QVERIFY2(out.contains("/100000  step "), out.constData());
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        out += p.readAllStandardOutput();
        QCOMPARE(p.exitCode(), kStoppedExitCode);
        QVERIFY2(out.contains(" stopped; continue it with: layerforge-cli train " + path.toUtf8() + " --resume"),
                 out.right(1000).constData());
        QVERIFY2(out.contains("weights saved to "), out.right(1000).constData());
    }

    // The second Ctrl-C takes the default action: the process ends at once, before it finishes
    // up. To keep it from finishing up between the two signals, its standard output is a pipe
    // this test stops reading: the run blocks writing its next step.
    void secondCtrlCQuitsAtOnce() {
        const QString path = project("twice");
        int out[2], err[2];
        QVERIFY(::pipe(out) == 0 && ::pipe(err) == 0);
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_adddup2(&fa, err[1], 2);
        for (int fd : {out[0], out[1], err[0], err[1]}) posix_spawn_file_actions_addclose(&fa, fd);
        const QByteArray cliPath = qgetenv("LF_CLI"), project = path.toUtf8();
        std::vector<char*> argv{const_cast<char*>(cliPath.constData()), const_cast<char*>("train"),
                                const_cast<char*>(project.constData()), const_cast<char*>("--json"),
                                const_cast<char*>("--log-every"), const_cast<char*>("1"), nullptr};
        // As a shell starts a command: no signal blocked, the stop signals at their defaults
        // (this test process may block or handle them).
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        sigset_t none, stops;
        sigemptyset(&none);
        sigemptyset(&stops);
        for (int sig : {SIGINT, SIGTERM, SIGUSR1}) sigaddset(&stops, sig);
        posix_spawnattr_setsigmask(&attr, &none);
        posix_spawnattr_setsigdefault(&attr, &stops);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        pid_t pid = 0;
        QCOMPARE(posix_spawn(&pid, argv[0], &fa, &attr, argv.data(), environ), 0);
        posix_spawn_file_actions_destroy(&fa);
        posix_spawnattr_destroy(&attr);
        ::close(out[1]);
        ::close(err[1]);
        auto reap = [&] {  // whatever happens below, no process is left behind
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        };
        // The first step, then no more reading until the pipe is full and the run waits on it.
        QByteArray seen;
        QElapsedTimer wait;
        wait.start();
        while (!seen.contains("\"event\":\"step\"") && wait.elapsed() < 60000) {
            char buf[512];
            const ssize_t n = ::read(out[0], buf, sizeof buf);
            if (n <= 0) break;
            seen.append(buf, n);
        }
        if (!seen.contains("\"event\":\"step\"")) reap();
        QVERIFY2(seen.contains("\"event\":\"step\""), seen.constData());
        // /proc/PID/task/TID/syscall names the call only of a thread that sleeps in it.
        while (wait.elapsed() < 60000 && !writingStdout(pid)) QTest::qWait(20);
        if (!writingStdout(pid)) reap();
        QVERIFY2(writingStdout(pid), "the run never blocked on its full standard output");

        ::kill(pid, SIGINT);
        ::fcntl(err[0], F_SETFL, ::fcntl(err[0], F_GETFL) | O_NONBLOCK);
        QString errText;
        while (!errText.contains("stopping after this step") && wait.elapsed() < 60000) {
            QTest::qWait(20);
            errText += readAll(err[0]);
        }
        if (!errText.contains("stopping after this step")) reap();
        QVERIFY2(errText.contains("stopping after this step"), qPrintable(errText));
        ::kill(pid, SIGINT);  // Ctrl-C again
        int status = 0;
        pid_t done = 0;
        while ((done = ::waitpid(pid, &status, WNOHANG)) == 0 && wait.elapsed() < 60000) QTest::qWait(20);
        if (done != pid) reap();
        QVERIFY2(done == pid, "the second SIGINT did not end the process");
        QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT, qPrintable(QString("status %1").arg(status)));
        ::close(out[0]);
        ::close(err[0]);
        // It did not finish up: the run reads as interrupted, its checkpoints kept, no weights.
        lf::RunStore store(lf::RunStore::path_for_project(path.toStdString()));
        QCOMPARE(store.runs().size(), std::size_t(1));
        QCOMPARE(store.runs()[0].status, lf::RunStatus::Interrupted);
        QVERIFY(!QFile::exists(dir_.filePath("twice.weights.safetensors")));
    }
};

QTEST_GUILESS_MAIN(TestCliStop)
#include "test_cli_stop.moc"
