#pragma once
// `train --distributed` and `sweep --distributed`: the command as one rank of the MPI job that
// mpirun (or srun) started. Rank 0 speaks for the job (the others' standard output goes to
// /dev/null); a rank that fails alone ends the whole job, naming itself, since the others would
// otherwise wait for it.
#include <functional>
#include <memory>

#include "args.h"
#include "layerforge/core/communicator.h"

namespace lf::cli {

inline const OptionSpec kDistributedOption{
    "distributed", "", "one rank of an MPI job: start it with mpirun -np N (or srun); rank 0 prints and records"};
inline const OptionSpec kRankTimeoutOption{
    "rank-timeout", "S", "with --distributed: stop the job when a rank has not reached an exchange S seconds after "
                         "the others (default 20; the first, while the ranks load their data, 10x)"};

// Runs body(world), or body(nullptr) without --distributed. body says, through `together`,
// when every rank has finished its part: a failure after that is every rank's own, so it is
// reported as usual instead of ending the job.
int run_as_rank(const Args& args, const std::function<int(Communicator* world, bool& together)>& body);

}  // namespace lf::cli
