#include "mpi_job.h"

#include <cstdio>
#include <new>

#include "layerforge/core/error.h"
#include "mpi_loader.h"

namespace lf::cli {

int run_as_rank(const Args& args, const std::function<int(Communicator* world, bool& together)>& body) {
    bool together = false;
    if (!args.flag("distributed")) return body(nullptr, together);
    const double timeout = double(args.integer("rank-timeout").value_or(20));
    if (!(timeout >= 1)) throw input_error("option --rank-timeout must be at least 1 second");
    std::unique_ptr<Communicator> world = join_mpi_job(timeout);
    if (world->rank() != 0 && !std::freopen("/dev/null", "w", stdout))
        world->abort("standard output could not be redirected to /dev/null");
    const bool alone_ends_job = world->size() > 1;
    try {
        return body(world.get(), together);
    } catch (const Error& e) {
        if (alone_ends_job && !together) world->abort(e.what());
        throw;
    } catch (const std::bad_alloc&) {
        if (alone_ends_job && !together) world->abort("out of memory: lower the batch size or the model's size");
        throw;
    } catch (const std::exception&) {
        if (alone_ends_job && !together) world->abort("internal error; please report it with the command line and the files it names");
        throw;
    }
}

}  // namespace lf::cli
