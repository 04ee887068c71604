// NCCL behind the table's collective entries. libnccl.so.2 is opened on first use rather than
// linked, so the module (and single-GPU training) works where NCCL is not installed; the
// entry points come from nccl.h's declarations, resolved by name.
#include "collective.h"

#include <dlfcn.h>
#include <nccl.h>

#include <cstdio>
#include <cstring>

#include "context.h"
#include "status.h"

struct lf_cuda_collective {
    lf_cuda_context* ctx = nullptr;
    ncclComm_t comm = nullptr;
    cudaStream_t stream = nullptr;
    cudaEvent_t ready = nullptr;  // the context's stream reached the sum (backward wrote the bucket)
    cudaEvent_t done = nullptr;   // the sums queued before the last join are complete
};

namespace lf::cuda {

namespace {

struct Nccl {
    decltype(&ncclGetVersion) get_version = nullptr;
    decltype(&ncclGetUniqueId) get_unique_id = nullptr;
    decltype(&ncclCommInitRank) init_rank = nullptr;
    decltype(&ncclCommDestroy) destroy = nullptr;
    decltype(&ncclCommAbort) abort = nullptr;
    decltype(&ncclCommGetAsyncError) async_error = nullptr;
    decltype(&ncclAllReduce) all_reduce = nullptr;
    decltype(&ncclGetErrorString) error_string = nullptr;
    char missing[200] = {};  // why it could not be opened; empty when it was
};

template <class F>
bool resolve(void* lib, const char* name, F& f) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    return f != nullptr;
}

Nccl open_nccl() {
    Nccl n;
    void* lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        std::snprintf(n.missing, sizeof n.missing, "%s", "NCCL (libnccl.so.2) is not installed; data-parallel "
                                                         "training on GPUs needs it (apt install libnccl2)");
        return n;
    }
    const bool all = resolve(lib, "ncclGetVersion", n.get_version) && resolve(lib, "ncclGetUniqueId", n.get_unique_id) &&
                     resolve(lib, "ncclCommInitRank", n.init_rank) && resolve(lib, "ncclCommDestroy", n.destroy) &&
                     resolve(lib, "ncclCommAbort", n.abort) && resolve(lib, "ncclCommGetAsyncError", n.async_error) &&
                     resolve(lib, "ncclAllReduce", n.all_reduce) && resolve(lib, "ncclGetErrorString", n.error_string);
    if (!all) std::snprintf(n.missing, sizeof n.missing, "%s", "libnccl.so.2 lacks an entry point this module needs (NCCL 2.12 or newer)");
    return n;  // the library stays loaded for the process
}

const Nccl& nccl(lf_cuda_error* err, int& status) {
    static const Nccl n = open_nccl();
    status = n.missing[0] ? fail(err, -1, "opening NCCL", n.missing, "dlopen") : 0;
    return n;
}

int check_nccl(const Nccl& n, ncclResult_t r, const char* what, lf_cuda_error* err) {
    if (r == ncclSuccess) return 0;
    return fail(err, int(r), what, n.error_string(r), "ncclResult");
}

}  // namespace

int collective_id(unsigned char id[LF_CUDA_COLLECTIVE_ID_BYTES], int* nccl_version, lf_cuda_error* err) {
    static_assert(sizeof(ncclUniqueId) == LF_CUDA_COLLECTIVE_ID_BYTES, "the table's id size is NCCL's");
    int s = 0;
    const Nccl& n = nccl(err, s);
    if (s) return s;
    if (nccl_version && (s = check_nccl(n, n.get_version(nccl_version), "ncclGetVersion", err))) return s;
    ncclUniqueId u;
    if ((s = check_nccl(n, n.get_unique_id(&u), "ncclGetUniqueId", err))) return s;
    std::memcpy(id, &u, sizeof u);
    return 0;
}

lf_cuda_collective* collective_create(lf_cuda_context* ctx, const unsigned char id[LF_CUDA_COLLECTIVE_ID_BYTES],
                                      int rank, int size, lf_cuda_error* err) {
    int s = 0;
    const Nccl& n = nccl(err, s);
    if (s || (s = enter(ctx, err))) return nullptr;
    auto* c = new lf_cuda_collective;
    c->ctx = ctx;
    ncclUniqueId u;
    std::memcpy(&u, id, sizeof u);
    s = check(cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking), "cudaStreamCreate", err);
    if (!s) s = check(cudaEventCreateWithFlags(&c->ready, cudaEventDisableTiming), "cudaEventCreate", err);
    if (!s) s = check(cudaEventCreateWithFlags(&c->done, cudaEventDisableTiming), "cudaEventCreate", err);
    if (!s) s = check_nccl(n, n.init_rank(&c->comm, size, u, rank), "ncclCommInitRank", err);
    if (!s) s = check(cudaEventRecord(c->done, c->stream), "cudaEventRecord", err);  // nothing pending yet
    if (s) {
        collective_destroy(c, 1);
        return nullptr;
    }
    return c;
}

void collective_destroy(lf_cuda_collective* c, int abort) {
    if (!c) return;
    cudaSetDevice(c->ctx->device);
    int s = 0;
    const Nccl& n = nccl(nullptr, s);
    if (c->comm && !s) (abort ? n.abort : n.destroy)(c->comm);
    if (c->done) cudaEventDestroy(c->done);
    if (c->ready) cudaEventDestroy(c->ready);
    if (c->stream) cudaStreamDestroy(c->stream);
    delete c;
}

int collective_sum(lf_cuda_collective* c, float* data, size_t n, float scale, lf_cuda_error* err) {
    int s = 0;
    const Nccl& nc = nccl(err, s);
    if (s || (s = enter(c->ctx, err))) return s;
    if ((s = check(cudaEventRecord(c->ready, c->ctx->stream), "cudaEventRecord", err))) return s;
    if ((s = check(cudaStreamWaitEvent(c->stream, c->ready, 0), "cudaStreamWaitEvent", err))) return s;
    if (scale != 1.f && (s = scale_on(c->stream, data, scale, n, err))) return s;
    return check_nccl(nc, nc.all_reduce(data, data, n, ncclFloat32, ncclSum, c->comm, c->stream), "ncclAllReduce", err);
}

int collective_join(lf_cuda_collective* c, lf_cuda_error* err) {
    if (int s = enter(c->ctx, err)) return s;
    if (int s = check(cudaEventRecord(c->done, c->stream), "cudaEventRecord", err)) return s;
    return check(cudaStreamWaitEvent(c->ctx->stream, c->done, 0), "cudaStreamWaitEvent", err);
}

int collective_done(lf_cuda_collective* c, int* done, lf_cuda_error* err) {
    *done = 0;
    int s = 0;
    const Nccl& n = nccl(err, s);
    if (s || (s = enter(c->ctx, err))) return s;
    ncclResult_t async = ncclSuccess;
    if ((s = check_nccl(n, n.async_error(c->comm, &async), "ncclCommGetAsyncError", err))) return s;
    if (async != ncclSuccess && async != ncclInProgress) return check_nccl(n, async, "the GPUs' sum (NCCL)", err);
    const cudaError_t q = cudaEventQuery(c->done);
    if (q == cudaErrorNotReady) return 0;
    if ((s = check(q, "cudaEventQuery", err))) return s;
    *done = 1;
    return 0;
}

}  // namespace lf::cuda
