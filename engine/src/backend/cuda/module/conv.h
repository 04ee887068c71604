#pragma once
// cuDNN convolutions (conv.cpp): descriptors made once per plan step, the heuristics' choice
// within a workspace budget, and the three passes.
#include "backend/cuda/cuda_api.h"

namespace lf::cuda {

lf_cuda_conv* conv_create(lf_cuda_context* ctx, const lf_cuda_conv_shape* shape, lf_cuda_error* err);
void conv_destroy(lf_cuda_conv* conv);
int conv_choose(lf_cuda_context* ctx, lf_cuda_conv* conv, int pass, size_t max_workspace, int* algo, size_t* workspace,
                lf_cuda_error* err);
int conv_forward(lf_cuda_context* ctx, lf_cuda_conv* conv, int algo, const void* x, const void* w, void* y,
                 void* workspace, size_t workspace_bytes, lf_cuda_error* err);
int conv_backward_data(lf_cuda_context* ctx, lf_cuda_conv* conv, int algo, const void* w, const void* dy, void* dx,
                       void* workspace, size_t workspace_bytes, lf_cuda_error* err);
int conv_backward_filter(lf_cuda_context* ctx, lf_cuda_conv* conv, int algo, const void* x, const void* dy, void* dw,
                         void* workspace, size_t workspace_bytes, lf_cuda_error* err);

}  // namespace lf::cuda
