#pragma once
// The small CUDA kernels (kernels.cu): fills, bias, activations, layout copies, dropout and its step counter.
#include "backend/cuda/cuda_api.h"

namespace lf::cuda {

int fill(lf_cuda_context* ctx, float* dst, float value, size_t n, lf_cuda_error* err);
int scale(lf_cuda_context* ctx, float* x, float factor, size_t n, lf_cuda_error* err);
int add(lf_cuda_context* ctx, int dtype, void* dst, const void* src, size_t n, lf_cuda_error* err);
int add_bias(lf_cuda_context* ctx, int dtype, void* y, const float* bias, int64_t rows, int64_t cols,
             lf_cuda_error* err);
int cast(lf_cuda_context* ctx, int src_dtype, const void* src, int dst_dtype, void* dst, size_t n, lf_cuda_error* err);
int check_finite(lf_cuda_context* ctx, const float* g, size_t n, int32_t* found, lf_cuda_error* err);
int activation_forward(lf_cuda_context* ctx, int dtype, int kind, const void* x, void* y, size_t n, lf_cuda_error* err);
int activation_backward(lf_cuda_context* ctx, int dtype, int kind, const void* y, const void* dy, void* dx, size_t n,
                        lf_cuda_error* err);
int act_forward(lf_cuda_context* ctx, int dtype, const lf_cuda_act* a, const void* x, void* y, size_t n,
                lf_cuda_error* err);
int act_backward(lf_cuda_context* ctx, int dtype, const lf_cuda_act* a, const void* x, const void* dy, void* dx,
                 size_t n, lf_cuda_error* err);
int transpose(lf_cuda_context* ctx, int src_dtype, const void* src, int dst_dtype, void* dst, int64_t rows,
              int64_t cols, lf_cuda_error* err);
int pad2d(lf_cuda_context* ctx, int dtype, const void* x, void* y, int64_t n, int64_t h, int64_t w, int64_t c, int top,
          int bottom, int left, int right, lf_cuda_error* err);
int crop2d(lf_cuda_context* ctx, int dtype, const void* y, void* x, int64_t n, int64_t h, int64_t w, int64_t c, int top,
           int bottom, int left, int right, lf_cuda_error* err);
int multiply(lf_cuda_context* ctx, int dtype, void* dst, const void* src, size_t n, int64_t pixels, int64_t c,
             int broadcast, lf_cuda_error* err);
int sum_pixels(lf_cuda_context* ctx, int dtype, const void* src, void* dst, int64_t batch, int64_t pixels, int64_t c,
               lf_cuda_error* err);
int dropout_forward(lf_cuda_context* ctx, int dtype, const void* x, void* y, void* mask, size_t n, uint64_t seed,
                    const uint64_t* step, uint64_t first, uint64_t threshold, float scale, lf_cuda_error* err);
int count_step(lf_cuda_context* ctx, uint64_t* counter, lf_cuda_error* err);

}  // namespace lf::cuda
