#pragma once
// This process as one rank of an MPI job, through liblayerforge_mpi.so, opened only here: for
// `train --distributed` and the MPI tests (no other command, and not the studio, needs an MPI
// runtime).
#include <memory>

#include "layerforge/core/communicator.h"

namespace lf {

// Opens the MPI module and joins the job mpirun (or srun) started; a process started alone is
// a job of one. `timeout_seconds`: how long an exchange waits for the other ranks before the
// job is stopped (the first, while the ranks load their data, ten times as long). Throws
// lf::Error (Input) naming the module and why it cannot be used.
std::unique_ptr<Communicator> join_mpi_job(double timeout_seconds);

}  // namespace lf
