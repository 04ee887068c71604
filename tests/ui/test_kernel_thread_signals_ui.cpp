// The studio's threads that run the engine's kernels (the training thread, the background
// pool's) block the signals from outside (layerforge/core/kernel_thread_signals.h): a signal the
// process handles never lands on oneDNN's GEMM kernels, whose rsp points into the heap.
#include <QDir>
#include <QtTest>

#include <pthread.h>

#include <csignal>

#include "document/project_document.h"
#include "session/background_task.h"
#include "session/studio_session.h"
#include "training/training_controller.h"

using namespace lf::ui;

namespace {

// The SigBlk mask of this process's thread named `name` (/proc/self/task/*/comm); 0 if none.
quint64 blockedMaskOf(const QByteArray& name) {
    const QDir tasks("/proc/self/task");
    for (const QString& tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(tasks.filePath(tid + "/comm")), status(tasks.filePath(tid + "/status"));
        if (!comm.open(QIODevice::ReadOnly) || comm.readAll().trimmed() != name || !status.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray& line : status.readAll().split('\n'))
            if (line.startsWith("SigBlk:")) return line.mid(7).trimmed().toULongLong(nullptr, 16);
    }
    return 0;
}

bool blocks(quint64 mask, int sig) { return mask & (1ull << (sig - 1)); }

}  // namespace

class TestKernelThreadSignalsUi : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theTrainingThreadBlocksOutsideSignals() {
        ProjectDocument doc;
        StudioSession session(&doc);
        TrainingController controller(&session);
        QTRY_VERIFY_WITH_TIMEOUT(blockedMaskOf("training") != 0, 5000);
        const quint64 mask = blockedMaskOf("training");
        for (int sig : {SIGINT, SIGTERM, SIGUSR1, SIGCHLD}) QVERIFY2(blocks(mask, sig), qPrintable(QString::number(sig)));
        QVERIFY(!blocks(mask, SIGSEGV));
    }

    void backgroundJobsRunWithOutsideSignalsBlocked() {
        QObject context;
        bool done = false;
        int blocked = -1;
        runInBackground(&context, [] {
            sigset_t m;
            pthread_sigmask(SIG_BLOCK, nullptr, &m);
            return sigismember(&m, SIGINT) + sigismember(&m, SIGUSR1) + sigismember(&m, SIGCHLD);
        }, [&](int n) {
            blocked = n;
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(done, 5000);
        QCOMPARE(blocked, 3);
    }
};

QTEST_MAIN(TestKernelThreadSignalsUi)
#include "test_kernel_thread_signals_ui.moc"
