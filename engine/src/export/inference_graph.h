#pragma once
// The model lowered for channels-first runtimes (ONNX, PyTorch): Dropout removed, images in
// NCHW, weights already in the target layouts (Gemm (units, in), Conv OIHW), BatchNormalization
// optionally folded, and the first Dense after a channels-first Flatten permuted so the
// numbers equal the engine's channels-last Flatten. The ONNX and PyTorch writers translate
// these ops one by one and never touch the Keras layouts themselves.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "layerforge/export/export.h"

namespace lf::exporter {

enum class OpKind {
    Transpose,      // perm
    Gemm,           // weights W (units, in), optional B
    Conv,           // weights W (out, in / group, kh, kw), optional B; kernel, strides, pads, dilations, group
    ConvTranspose,  // weights W (in, out, kh, kw), optional B; kernel, strides, dilations, pads (a negative
                    // bottom/right pad: rows past the full result, bias only), shape: output (H, W)
    MaxPool,        // kernel, strides, pads
    AvgPool,        // kernel, strides, pads; padding counted when count_include_pad
    GlobalAvgPool,  // (N, C, H, W) -> (N, C)
    GlobalMaxPool,
    Flatten,        // (N, ...) -> (N, prod)
    Reshape,        // shape: per-sample target (may hold one -1)
    BatchNorm,      // weights scale, bias, mean, var; epsilon
    Add,
    Concat,         // axis (with the batch axis 0)
    Mul,            // element-wise product; a (N, C, 1, 1) input broadcast over the image
    Pad,            // pads (zeros)
    Activation,     // activation: Relu, LeakyRelu (alpha), Sigmoid, Tanh, Softmax (axis), Elu, Exp, Swish,
                    // KerasRelu (alpha below threshold, capped at max_value when > 0)
};

struct Tensor {
    std::string role;  // "W", "B", "scale", "bias", "mean", "var"
    std::vector<std::int64_t> shape;
    std::vector<float> data;
};

struct Op {
    OpKind kind;
    std::string layer;  // the Keras layer (node name) it comes from
    std::vector<std::string> inputs;
    std::string output;
    std::vector<Tensor> weights;
    std::vector<std::int64_t> perm, shape;
    std::array<std::int64_t, 2> kernel{1, 1}, strides{1, 1}, dilations{1, 1};
    std::array<std::int64_t, 4> pads{0, 0, 0, 0};  // top, left, bottom, right
    std::int64_t group = 1, axis = 1;
    bool count_include_pad = false;
    std::string activation;
    double alpha = 0, epsilon = 1e-3, threshold = 0, max_value = 0;
    const Tensor* weight(const std::string& role) const;
};

// How runtimes that take only symmetric ConvTranspose pads (OpenCV, torch) express an Op of kind
// ConvTranspose: pads `symmetric` on both sides, `output_padding` rows added at the end, then
// the output (H, W) cropped from `crop_begin` when `crop` is set.
struct TransposeGeometry {
    std::array<std::int64_t, 2> symmetric{0, 0}, output_padding{0, 0}, crop_begin{0, 0};
    bool crop = false;
};
TransposeGeometry transpose_geometry(const Op& op);

struct Value {
    std::string name;
    std::vector<std::int64_t> dims;  // per sample, in the runtime's layout
};

struct InferenceGraph {
    Value input, output;  // as the runtime sees them (input NHWC unless asked for NCHW)
    std::vector<Op> ops;  // in execution order
};

// Throws lf::Error (Input) naming every layer with no mapping.
InferenceGraph lower(const Model& m, InputLayout layout, bool fold_batchnorm);

}  // namespace lf::exporter
