#pragma once
// Signals must not be handled on a thread that runs the engine's CPU kernels. oneDNN 2.6's
// generated f32 GEMM kernels (Dense, and convolutions lowered to GEMM) point rsp into a heap
// buffer while they run, so the frame the kernel writes for a signal handler lands in the heap
// and corrupts it (oneDNN issue 4845, fixed upstream after 3.11). A process that handles signals
// (the CLI's clean stop, Qt's or a profiler's handlers) therefore runs its kernels on threads
// that block them, and takes the signals on a thread that runs none.
#include <csignal>

namespace lf {

// Blocks, in the calling thread and in every thread it starts from now on (OpenMP's workers
// too), each signal that can come from outside the thread: everything but the faults the
// thread itself raises (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT) and SIGPIPE
// (a write to a closed pipe, sent to the writing thread). Returns the mask it had before.
sigset_t block_async_signals();

// Puts back a mask that block_async_signals returned.
void restore_signal_mask(const sigset_t& mask);

}  // namespace lf
