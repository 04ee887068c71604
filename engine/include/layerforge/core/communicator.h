#pragma once
// The processes of a data-parallel run, as the trainer needs them: MPI's world on the CPU
// (layerforge/mpi/mpi_communicator.h, linked by the CLI only) behind this interface, so the
// engine knows no transport. Every rank enters the same collectives in the same order.
//
// No hang forever: a collective that the other ranks do not complete within the communicator's
// timeout ends the whole job (abort), with a message naming the ranks that did not arrive and
// their hosts. A Collective names the one waited for in that message.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace lf {

struct Collective {
    const char* what;        // "the gradient exchange"
    std::int64_t step = -1;  // "... of step 12"; -1: none (set-up, evaluation)
    bool setup = false;      // before training: the ranks may still be loading their data (longer timeout)
};

class Communicator {
public:
    virtual ~Communicator() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    virtual std::string host(int rank) const = 0;  // where that rank runs
    // This rank's place among the ranks on its host: the GPU it takes ("cuda" -> cuda:local_rank).
    virtual int local_rank() const = 0;

    // Starts an in-place sum of data[0..n) over the ranks; it completes by wait_all(). The array
    // must stay untouched until then. progress() lets the started sums move while the caller
    // computes (MPI moves non-blocking collectives only inside its calls).
    virtual void start_sum(float* data, std::size_t n) = 0;
    virtual void progress() = 0;
    virtual void wait_all(Collective what) = 0;

    // Blocking, for the few numbers of a step (loss, sample counts, metric states).
    virtual void sum(double* data, std::size_t n, Collective what) = 0;
    // Root's array or bytes to every rank (a string is resized on the receivers).
    virtual void broadcast(float* data, std::size_t n, int root, Collective what) = 0;
    virtual void broadcast(std::string& bytes, int root, Collective what) = 0;

    // Polls done() until it returns true, for work that another transport moves (NCCL's sums on
    // a GPU): under the same deadline as the collectives here, answering the other ranks'
    // liveness probes meanwhile, so a rank that died is named rather than waited for.
    virtual void wait_until(const std::function<bool()>& done, Collective what) = 0;

    // Ends every rank of the job now, after printing "rank R (host H): message" on this one's
    // standard error: for a failure only this rank saw, which would leave the others waiting.
    [[noreturn]] virtual void abort(const std::string& message) = 0;
};

}  // namespace lf
