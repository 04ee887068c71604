#pragma once
// `train` and `sweep` stop cleanly on SIGINT (Ctrl-C), SIGTERM and SIGUSR1 (what Open MPI's
// mpirun forwards to its ranks, and what the studio's Stop sends it): the run finishes the step
// it is in, writes its checkpoint, test metrics and weights and reads "stopped", as a Stop in the
// studio does, and the command exits with kStoppedExitCode.
//
// Signal-safe: the handler only writes the signal's number into a pipe; a watcher thread reads
// it and calls `on_stop` (which asks the session to stop; it must not block). The handlers are
// installed with SA_RESETHAND, and the first stop signal puts all three back to their default
// action, so a second one (Ctrl-C again) ends the process at once. The destructor restores the
// handlers the process had before and joins the watcher.
//
// While it exists, the thread that made it (the command's, which runs the kernels) and the
// threads that one starts block every outside signal (layerforge/core/kernel_thread_signals.h
// says why): they all reach the process on the watcher, which keeps the mask the command had.
#include <atomic>
#include <csignal>
#include <functional>
#include <string>
#include <thread>

namespace lf::cli {

// The exit code of a command that a stop signal ended cleanly (the run "stopped", its weights
// saved): beside 0 (ok), 1 (runtime failure) and 2 (usage or input). A process the signal's
// default action ended instead (the second Ctrl-C) reads 128 + the signal's number in the shell.
inline constexpr int kStoppedExitCode = 3;

// "SIGINT", "SIGTERM", "SIGUSR1".
std::string signal_name(int sig);
// The line a stop signal prints on stderr (rank 0, or the single process).
std::string stopping_line(int sig);

class StopSignals {
public:
    explicit StopSignals(std::function<void(int sig)> on_stop);
    ~StopSignals();
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

    int received() const { return received_; }  // the first stop signal's number; 0: none came

private:
    void watch();

    std::function<void(int)> on_stop_;
    int read_fd_ = -1, write_fd_ = -1;
    struct sigaction old_[3];
    sigset_t old_mask_;  // the constructing thread's, which the watcher keeps
    std::atomic<int> received_{0};
    std::thread watcher_;
};

}  // namespace lf::cli
