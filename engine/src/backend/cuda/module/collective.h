#pragma once
// The clique of a data-parallel job's GPUs (NCCL, opened with dlopen on first use).
#include <cuda_runtime.h>

#include "backend/cuda/cuda_api.h"

namespace lf::cuda {

int collective_id(unsigned char id[LF_CUDA_COLLECTIVE_ID_BYTES], int* nccl_version, lf_cuda_error* err);
lf_cuda_collective* collective_create(lf_cuda_context* ctx, const unsigned char id[LF_CUDA_COLLECTIVE_ID_BYTES],
                                      int rank, int size, lf_cuda_error* err);
void collective_destroy(lf_cuda_collective* c, int abort);
int collective_sum(lf_cuda_collective* c, float* data, size_t n, float scale, lf_cuda_error* err);
int collective_join(lf_cuda_collective* c, lf_cuda_error* err);
int collective_done(lf_cuda_collective* c, int* done, lf_cuda_error* err);

// x[i] *= factor on `stream` (kernels.cu): a bucket's share, on the collective's stream.
int scale_on(cudaStream_t stream, float* x, float factor, size_t n, lf_cuda_error* err);

}  // namespace lf::cuda
