#pragma once
// Pinned host memory, events, the copy stream's uploads and the capture of the context's
// stream into CUDA graphs (graph.cpp).
#include "backend/cuda/cuda_api.h"

namespace lf::cuda {

int host_alloc(size_t bytes, void** ptr, lf_cuda_error* err);
int host_free(void* ptr, lf_cuda_error* err);
lf_cuda_event* event_create(lf_cuda_context* ctx, lf_cuda_error* err);
lf_cuda_event* timing_event_create(lf_cuda_context* ctx, lf_cuda_error* err);
int event_elapsed(lf_cuda_event* start, lf_cuda_event* end, float* ms, lf_cuda_error* err);
void event_destroy(lf_cuda_event* ev);
int event_wait_host(lf_cuda_event* ev, lf_cuda_error* err);
int event_record(lf_cuda_context* ctx, lf_cuda_event* ev, lf_cuda_error* err);
int stream_wait(lf_cuda_context* ctx, lf_cuda_event* ev, lf_cuda_error* err);
int upload(lf_cuda_context* ctx, void* dst, const void* pinned_src, size_t bytes, lf_cuda_event* after,
           lf_cuda_event* done, lf_cuda_error* err);
int capture_begin(lf_cuda_context* ctx, lf_cuda_error* err);
lf_cuda_graph* capture_end(lf_cuda_context* ctx, lf_cuda_error* err);
int graph_launch(lf_cuda_context* ctx, lf_cuda_graph* graph, lf_cuda_error* err);
void graph_destroy(lf_cuda_graph* graph);

}  // namespace lf::cuda
