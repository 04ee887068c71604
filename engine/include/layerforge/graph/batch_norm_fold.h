#pragma once
// A BatchNormalization folded into the linear op before it (a convolution at inference, or an
// exported Conv / Gemm): per output channel,
//   gamma * (y + b - mean) / sqrt(var + eps) + beta == y * scale + shift
// with scale = gamma / sqrt(var + eps) and shift = (b - mean) * scale + beta. The CPU plan
// folds in float from the live weights, the ONNX / PyTorch export in double: one formula.
#include <cmath>

namespace lf {

template <class T>
T norm_fold_scale(T gamma, T moving_variance, T epsilon) {
    return gamma / std::sqrt(moving_variance + epsilon);
}

template <class T>
T norm_fold_shift(T bias, T moving_mean, T beta, T scale) {
    return (bias - moving_mean) * scale + beta;
}

}  // namespace lf
