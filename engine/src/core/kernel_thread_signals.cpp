#include "layerforge/core/kernel_thread_signals.h"

#include <pthread.h>

#include <initializer_list>

namespace lf {

sigset_t block_async_signals() {
    sigset_t block, old;
    sigfillset(&block);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT, SIGPIPE}) sigdelset(&block, sig);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    return old;
}

void restore_signal_mask(const sigset_t& mask) { pthread_sigmask(SIG_SETMASK, &mask, nullptr); }

}  // namespace lf
