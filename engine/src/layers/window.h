#pragma once
// Sliding-window geometry shared by the convolution and pooling layers and their CPU ops:
// output size and padding per spatial axis, with 'same' padding as TensorFlow computes it
// (the odd extra row/column of padding goes to the bottom/right).
#include <array>
#include <cstdint>
#include <string>

#include "layerforge/core/params.h"
#include "layerforge/core/shape.h"

namespace lf {

struct Window2D {
    std::array<std::int64_t, 2> kernel{1, 1}, stride{1, 1}, dilation{1, 1};  // dilation 1 = dense
    std::array<std::int64_t, 2> in{0, 0}, out{0, 0}, pad_l{0, 0}, pad_r{0, 0};
};

// A forward window (convolution, pooling) over the (H, W) of `in`. Throws lf::Error (Input)
// when the window does not fit. `what` names the layer in messages.
Window2D conv_window(const Shape& in, const IntList& kernel, const IntList& strides, const IntList& dilation,
                     const std::string& padding, const std::string& what);

// The transposed window of Conv2DTranspose: `in` is the small side, out the large one. The
// output size is Keras' (output_padding empty: Keras' None), the cropping TensorFlow's; pad_r
// is negative when the output reaches past the full transposed convolution (those rows get
// the bias only). Throws lf::Error (Input) for output_padding >= strides.
Window2D transposed_window(const Shape& in, const IntList& kernel, const IntList& strides, const IntList& dilation,
                           const std::string& padding, const IntList& output_padding);
// The same from the Conv2DTranspose parameters.
Window2D transposed_window(const Shape& in, const Params& p);

// The window of MaxPool2D / AveragePooling2D from their parameters: 'valid', 'same' or
// 'explicit' padding (top, bottom, left, right), optionally with ceil_mode; pad_r then covers
// the last window. Throws lf::Error (Input); `what` names the layer (layers/pooling.cpp).
Window2D pool_window(const Shape& in, const Params& p, const std::string& what);

// The H x W x C input the layer needs; throws lf::Error (Input) for other ranks.
void require_image(const Shape& in, const std::string& what);

}  // namespace lf
