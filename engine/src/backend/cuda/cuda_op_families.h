#pragma once
// The op families behind cuda_ops.h's table, one file each. A family says whether it can run a
// node (why not, as the rest of a sentence starting "layer 'NAME' (TYPE)", else ""), what
// device memory it needs, whether its backward reads its own output, and builds the op.
#include "backend/cuda/cuda_ops.h"

namespace lf {

struct CudaOpFamily {
    std::string (*unsupported)(const NodeInfo& node);  // null: every node of the family runs
    // `dtype`: what the op's activations are stored in (the schedule's compute_dtype).
    CudaOpNeeds (*needs)(const NodeInfo& node, std::int64_t batch, bool training, DType dtype);  // null: none
    bool (*reads_output)(const NodeInfo& node);  // null: never
    std::unique_ptr<CudaOp> (*make)(const CudaOpSetup& setup);  // null: no CUDA op
};

extern const CudaOpFamily kCudaDense;          // cuda_dense_op.cpp
extern const CudaOpFamily kCudaActivation;     // cuda_activation_op.cpp
extern const CudaOpFamily kCudaAdd;            // cuda_merge_ops.cpp
extern const CudaOpFamily kCudaConcatenate;
extern const CudaOpFamily kCudaMultiply;
extern const CudaOpFamily kCudaDropout;        // cuda_dropout_op.cpp
extern const CudaOpFamily kCudaZeroPadding;    // cuda_zero_padding_op.cpp
extern const CudaOpFamily kCudaConv;           // cuda_conv_op.cpp: Conv2D, DepthwiseConv2D, Conv2DTranspose
extern const CudaOpFamily kCudaPooling;        // cuda_pooling_op.cpp
extern const CudaOpFamily kCudaBatchNorm;      // cuda_batch_norm_op.cpp
extern const CudaOpFamily kCudaUnsupported;    // cuda_ops.cpp: plugin layers

// ": activation 'NAME' has no CUDA kernel yet" for a Dense or convolution activation without one.
std::string cuda_activation_unsupported(const std::string& name);

}  // namespace lf
