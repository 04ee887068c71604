#pragma once
// The storage types of lf_cuda_dtype as cuDNN's and cuBLAS's descriptors name them.
#include <cublas_v2.h>
#include <cudnn.h>

#include "backend/cuda/cuda_api.h"

namespace lf::cuda {

inline cudnnDataType_t cudnn_type(int dtype) {
    return dtype == LF_CUDA_BF16 ? CUDNN_DATA_BFLOAT16 : dtype == LF_CUDA_F16 ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
}

inline cudaDataType_t blas_type(int dtype) {
    return dtype == LF_CUDA_BF16 ? CUDA_R_16BF : dtype == LF_CUDA_F16 ? CUDA_R_16F : CUDA_R_32F;
}

}  // namespace lf::cuda
