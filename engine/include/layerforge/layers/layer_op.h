#pragma once
// The operation a layer type computes, as an enum every backend keys its op table by (one entry
// per built-in layer type, in this order, plus Plugin for a plugin's plain-loop kernel). The
// names table and each backend's table are checked against this enum at compile time, so adding
// a layer type without its ops fails the build instead of a run.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace lf {

enum class LayerOp : std::uint8_t {
    Input,
    Dense,
    Flatten,
    Reshape,
    ZeroPadding2D,
    Activation,
    ReLU,
    LeakyReLU,
    Sigmoid,
    Tanh,
    GELU,
    Softmax,
    Dropout,
    Add,
    Concatenate,
    Multiply,
    Conv2D,
    DepthwiseConv2D,
    Conv2DTranspose,
    MaxPool2D,
    AveragePooling2D,
    GlobalAveragePooling2D,
    GlobalMaxPooling2D,
    BatchNormalization,
    Plugin,  // a plugin layer: its LayerSpec::kernel, or a view
    Count
};

inline constexpr std::size_t kLayerOpCount = std::size_t(LayerOp::Count);

// The Keras type name of each built-in op ("" for Plugin), indexed by LayerOp.
inline constexpr std::array<std::string_view, kLayerOpCount> kLayerOpNames = {
    "Input",     "Dense",   "Flatten",     "Reshape",         "ZeroPadding2D",   "Activation",
    "ReLU",      "LeakyReLU", "Sigmoid",   "Tanh",            "GELU",            "Softmax",
    "Dropout",   "Add",     "Concatenate", "Multiply", "Conv2D",          "DepthwiseConv2D", "Conv2DTranspose",
    "MaxPool2D", "AveragePooling2D", "GlobalAveragePooling2D", "GlobalMaxPooling2D", "BatchNormalization", ""};
static_assert(kLayerOpNames[std::size_t(LayerOp::BatchNormalization)] == "BatchNormalization" &&
                  kLayerOpNames[std::size_t(LayerOp::Plugin)].empty(),
              "kLayerOpNames is out of step with LayerOp");

// The built-in op of a type name; Plugin for any other name.
constexpr LayerOp layer_op_of(std::string_view type) {
    for (std::size_t i = 0; i + 1 < kLayerOpCount; ++i)
        if (kLayerOpNames[i] == type) return LayerOp(i);
    return LayerOp::Plugin;
}

// Op families the planner's rewrites look for.
constexpr bool is_activation_op(LayerOp op) { return op >= LayerOp::Activation && op <= LayerOp::Softmax; }
constexpr bool is_convolution_op(LayerOp op) { return op >= LayerOp::Conv2D && op <= LayerOp::Conv2DTranspose; }

// A backend's table of op factories, one entry per LayerOp in enum order. `in_step` lets the
// backend's file static_assert that its table lists every op exactly in order.
template <class Factory>
struct OpTableEntry {
    LayerOp op;
    Factory make;  // null: nothing to run (Input, views)
};

template <class Factory, std::size_t N>
constexpr bool in_step(const OpTableEntry<Factory> (&table)[N]) {
    if (N != kLayerOpCount) return false;
    for (std::size_t i = 0; i < N; ++i)
        if (std::size_t(table[i].op) != i) return false;
    return true;
}

}  // namespace lf
