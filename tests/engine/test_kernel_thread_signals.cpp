// block_async_signals (layerforge/core/kernel_thread_signals.h): a kernel thread blocks every
// signal from outside, passes the mask on to the threads it starts, and keeps the faults it
// raises itself (and SIGPIPE) deliverable; restore_signal_mask undoes it.
#include <QtTest>

#include <pthread.h>

#include <csignal>
#include <thread>

#include "layerforge/core/kernel_thread_signals.h"

namespace {

sigset_t current_mask() {
    sigset_t m;
    pthread_sigmask(SIG_BLOCK, nullptr, &m);
    return m;
}

constexpr int kOutside[] = {SIGINT, SIGTERM, SIGUSR1, SIGUSR2, SIGHUP, SIGCHLD, SIGALRM, SIGPROF, SIGQUIT};
constexpr int kOwn[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT, SIGPIPE};

}  // namespace

class TestKernelThreadSignals : public QObject {
    Q_OBJECT
private slots:
    void blocks_the_outside_signals_in_this_thread_and_its_children() {
        std::thread([] {
            const sigset_t before = current_mask();
            QVERIFY(!sigismember(&before, SIGUSR1));
            const sigset_t old = lf::block_async_signals();
            QCOMPARE(sigismember(&old, SIGUSR1), 0);  // what it returns is the mask before
            const sigset_t now = current_mask();
            for (int sig : kOutside) QVERIFY2(sigismember(&now, sig) == 1, qPrintable(QString::number(sig)));
            for (int sig : kOwn) QVERIFY2(sigismember(&now, sig) == 0, qPrintable(QString::number(sig)));
            int inherited = -1;
            std::thread([&] {
                const sigset_t child = current_mask();
                inherited = sigismember(&child, SIGINT) + sigismember(&child, SIGUSR1);
            }).join();
            QCOMPARE(inherited, 2);
            lf::restore_signal_mask(old);
            const sigset_t after = current_mask();
            for (int sig : kOutside) QCOMPARE(sigismember(&after, sig), sigismember(&before, sig));
        }).join();
    }
};

QTEST_APPLESS_MAIN(TestKernelThreadSignals)
#include "test_kernel_thread_signals.moc"
