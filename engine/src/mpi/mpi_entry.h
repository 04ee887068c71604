#pragma once
// The C entry point of liblayerforge_mpi.so, the only binary that links MPI: the CLI opens it
// with dlopen for `train --distributed` alone, so every other command (and the studio, which
// starts `mpirun layerforge-cli ...`) runs on a machine without an MPI runtime.
// The module and its caller come from one build (the ABI number guards against a stale one),
// so the object crosses as the C++ interface lf::Communicator.
#include <cstddef>

#include "layerforge/core/communicator.h"

#define LF_MPI_ENTRY_POINT "lf_mpi_open"
#define LF_MPI_ABI_VERSION 2  // 2: local_rank, wait_until

// Calls MPI_Init_thread and returns this process's world (a single process not started by a
// launcher is a world of one). timeout_seconds: how long a collective may wait for the other
// ranks before the job is ended (the first exchange, while the ranks load their data, waits
// `setup_timeout_seconds`). Null on failure, with the reason in `error`.
extern "C" {
typedef lf::Communicator* (*lf_mpi_open_fn)(int abi_version, double timeout_seconds, double setup_timeout_seconds,
                                            char* error, std::size_t error_size);
}
