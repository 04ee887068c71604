#include "stop_signals.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

#include "layerforge/core/error.h"
#include "layerforge/core/kernel_thread_signals.h"

namespace lf::cli {

namespace {

constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGUSR1};

// The pipe's write end while a StopSignals exists (one at a time); the handler reads it.
volatile std::sig_atomic_t g_write_fd = -1;

extern "C" void on_stop_signal(int sig) {
    const int saved = errno;
    const int fd = g_write_fd;
    if (fd >= 0) {
        const unsigned char b = static_cast<unsigned char>(sig);
        [[maybe_unused]] const ssize_t n = ::write(fd, &b, 1);  // async-signal-safe; a full pipe drops it
    }
    errno = saved;
}

// Puts the three signals back as they were before (their default action, in practice).
void restore(const struct sigaction (&old)[3]) {
    for (int i = 0; i < 3; ++i) ::sigaction(kSignals[i], &old[i], nullptr);
}

}  // namespace

std::string signal_name(int sig) {
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGUSR1: return "SIGUSR1";
    default: return "signal " + std::to_string(sig);
    }
}

std::string stopping_line(int sig) {
    if (sig == SIGINT) return "stopping after this step (Ctrl-C again to quit at once)";
    return signal_name(sig) + ": stopping after this step (send it again to quit at once)";
}

StopSignals::StopSignals(std::function<void(int)> on_stop) : on_stop_(std::move(on_stop)) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw runtime_error("cannot create the pipe for the stop signals");
    read_fd_ = fds[0];
    write_fd_ = fds[1];
    ::fcntl(write_fd_, F_SETFL, ::fcntl(write_fd_, F_GETFL) | O_NONBLOCK);  // the handler never blocks
    old_mask_ = block_async_signals();  // before the watcher, which undoes it for itself
    watcher_ = std::thread([this] {
        restore_signal_mask(old_mask_);
        watch();
    });
    g_write_fd = write_fd_;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    // SA_RESETHAND: the second one takes the default action at once, even before the watcher
    // has run; SA_RESTART: file reads and waits that the signal interrupts carry on.
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    for (int i = 0; i < 3; ++i) {
        ::sigaction(kSignals[i], nullptr, &old_[i]);
        // A signal ignored when the command started (a background job of a script: SIGINT)
        // stays ignored, as the shell meant.
        if (old_[i].sa_handler != SIG_IGN) ::sigaction(kSignals[i], &sa, nullptr);
    }
}

StopSignals::~StopSignals() {
    restore(old_);
    g_write_fd = -1;
    const unsigned char quit = 0;
    while (::write(write_fd_, &quit, 1) < 0 && errno == EINTR) {
    }
    watcher_.join();
    ::close(read_fd_);
    ::close(write_fd_);
    restore_signal_mask(old_mask_);
}

void StopSignals::watch() {
    for (;;) {
        unsigned char b = 0;
        const ssize_t n = ::read(read_fd_, &b, 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0 || b == 0) return;  // the command has ended
        if (received_ != 0) continue;  // the stop is under way
        received_ = b;
        restore(old_);  // any second stop signal now ends the process at once
        on_stop_(b);
    }
}

}  // namespace lf::cli
