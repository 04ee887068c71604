#include "graph.h"

#include "context.h"
#include "status.h"

struct lf_cuda_event {
    int device = 0;
    cudaEvent_t event = nullptr;
};

struct lf_cuda_graph {
    int device = 0;
    cudaGraphExec_t exec = nullptr;
};

namespace lf::cuda {

int host_alloc(size_t bytes, void** ptr, lf_cuda_error* err) {
    *ptr = nullptr;
    return check(cudaHostAlloc(ptr, bytes, cudaHostAllocPortable), "cudaHostAlloc", err);
}

int host_free(void* ptr, lf_cuda_error* err) { return check(cudaFreeHost(ptr), "cudaFreeHost", err); }

namespace {

lf_cuda_event* make_event(lf_cuda_context* ctx, unsigned flags, lf_cuda_error* err) {
    if (enter(ctx, err)) return nullptr;
    auto* ev = new lf_cuda_event{ctx->device, nullptr};
    if (check(cudaEventCreateWithFlags(&ev->event, flags), "cudaEventCreate", err)) {
        delete ev;
        return nullptr;
    }
    return ev;
}

}  // namespace

lf_cuda_event* event_create(lf_cuda_context* ctx, lf_cuda_error* err) {
    return make_event(ctx, cudaEventDisableTiming, err);
}

lf_cuda_event* timing_event_create(lf_cuda_context* ctx, lf_cuda_error* err) {
    return make_event(ctx, cudaEventDefault, err);
}

int event_elapsed(lf_cuda_event* start, lf_cuda_event* end, float* ms, lf_cuda_error* err) {
    if (int s = check(cudaEventSynchronize(end->event), "cudaEventSynchronize", err)) return s;
    return check(cudaEventElapsedTime(ms, start->event, end->event), "cudaEventElapsedTime", err);
}

void event_destroy(lf_cuda_event* ev) {
    if (!ev) return;
    cudaSetDevice(ev->device);
    cudaEventDestroy(ev->event);
    delete ev;
}

int event_wait_host(lf_cuda_event* ev, lf_cuda_error* err) {
    return check(cudaEventSynchronize(ev->event), "cudaEventSynchronize", err);
}

int event_record(lf_cuda_context* ctx, lf_cuda_event* ev, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    return check(cudaEventRecord(ev->event, ctx->stream), "cudaEventRecord", err);
}

int stream_wait(lf_cuda_context* ctx, lf_cuda_event* ev, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    return check(cudaStreamWaitEvent(ctx->stream, ev->event, 0), "cudaStreamWaitEvent", err);
}

int upload(lf_cuda_context* ctx, void* dst, const void* pinned_src, size_t bytes, lf_cuda_event* after,
           lf_cuda_event* done, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    if (after)
        if (int s = check(cudaStreamWaitEvent(ctx->copy_stream, after->event, 0), "cudaStreamWaitEvent", err)) return s;
    if (int s = check(cudaMemcpyAsync(dst, pinned_src, bytes, cudaMemcpyHostToDevice, ctx->copy_stream),
                      "cudaMemcpyAsync", err))
        return s;
    return done ? check(cudaEventRecord(done->event, ctx->copy_stream), "cudaEventRecord", err) : 0;
}

// Thread-local: the studio's gauges may query the device from another thread meanwhile.
int capture_begin(lf_cuda_context* ctx, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    return check(cudaStreamBeginCapture(ctx->stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture", err);
}

// Ends the capture whatever happened during it, so the stream runs eagerly again after a
// failed one; the error a refused call left is cleared (it is not sticky).
lf_cuda_graph* capture_end(lf_cuda_context* ctx, lf_cuda_error* err) {
    if (enter(ctx, err)) return nullptr;
    cudaGraph_t graph = nullptr;
    int s = check(cudaStreamEndCapture(ctx->stream, &graph), "cudaStreamEndCapture", err);
    cudaGetLastError();
    if (s) {
        if (graph) cudaGraphDestroy(graph);
        return nullptr;
    }
    cudaGraphExec_t exec = nullptr;
    s = check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate", err);
    cudaGraphDestroy(graph);  // the executable graph keeps what it needs
    if (s) {
        cudaGetLastError();
        return nullptr;
    }
    return new lf_cuda_graph{ctx->device, exec};
}

int graph_launch(lf_cuda_context* ctx, lf_cuda_graph* graph, lf_cuda_error* err) {
    if (int s = enter(ctx, err)) return s;
    return check(cudaGraphLaunch(graph->exec, ctx->stream), "cudaGraphLaunch", err);
}

void graph_destroy(lf_cuda_graph* graph) {
    if (!graph) return;
    cudaSetDevice(graph->device);
    cudaGraphExecDestroy(graph->exec);
    delete graph;
}

}  // namespace lf::cuda
