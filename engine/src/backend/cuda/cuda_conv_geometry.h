#pragma once
// A convolution layer's geometry as cuDNN sees it, from the layer's own window
// (layers/window.h). cuDNN convolves x (n x h x w x c) into y (n x out_h x out_w x k) with a
// KRSC filter. For Conv2D and DepthwiseConv2D x is the layer's input and y its output; a
// Conv2DTranspose is that convolution run backwards (Note [Conv2DTranspose on cuDNN]): x is
// the layer's output and y its input. Here are the padding cuDNN applies (symmetric) and the
// extra padding the plan applies first when TensorFlow's cropping puts more at the bottom or
// right; the KRSC kernel's size, the algorithm cache key, and the scratch budget the
// heuristics choose within.
#include <array>
#include <cstdint>

#include "backend/cuda/algo_cache.h"
#include "backend/cuda/cuda_api.h"
#include "layerforge/graph/model.h"
#include "layers/window.h"

namespace lf {

// Note [Conv2DTranspose on cuDNN]
// A transposed convolution from (H, W, C) to (OH, OW, F) with the Keras kernel (kh, kw, F, C)
// is the data gradient of the convolution from (OH, OW, F) to (H, W, C) whose KRSC filter has
// K = C filters of kh x kw x F: that filter is the Keras kernel read as a (kh kw F) x C matrix
// and transposed, exactly as a Conv2D's. So its forward is cuDNN's backward-data, its data
// gradient cuDNN's forward, and its filter gradient cuDNN's backward-filter with the
// convolution's input (the layer's output gradient) and output (the layer's input) in their
// roles. The convolution's input is padded by TensorFlow's cropping: pad_l at the top and left,
// pad_r at the bottom and right. pad_r is negative where the layer's output reaches past the
// full transposed convolution (Keras sizes 'valid' as in * stride when the window is narrower
// than the stride, and output_padding adds rows): those rows get the bias only. cuDNN cannot
// crop, and need not: a convolution ignores the last rows that no window reaches, and
// -pad_r < stride always, so padding 0 there gives the same output size, no data gradient from
// those rows, and a zero there in the transposed forward.
struct CudaConvGeometry {
    explicit CudaConvGeometry(const NodeInfo& node);

    bool transposed = false;     // Conv2DTranspose: x is the layer's output, y its input
    Window2D window;             // cuDNN's window over x: its pads, the bottom/right at least 0
    Shape x_shape;               // (H, W, C) of x before the plan's padding
    std::int64_t x_h = 0, x_w = 0, x_c = 0, out_h = 0, out_w = 0, k = 0, groups = 1;
    bool padded_x = false;       // asymmetric: the plan pads x, cuDNN pads nothing
    std::array<int, 4> extra{};  // the plan's padding of x: top, bottom, left, right

    lf_cuda_conv_shape shape(std::int64_t batch, int dtype = LF_CUDA_F32) const;
    // Rows of the Keras kernel as a (rows x k) matrix, the KRSC filter's transpose: kh kw (c / groups).
    std::int64_t kernel_rows() const;
    std::size_t kernel_floats() const { return std::size_t(kernel_rows() * k); }
    std::size_t padded_floats(std::int64_t batch) const;
    std::size_t x_floats(std::int64_t batch) const { return std::size_t(batch * x_h * x_w * x_c); }
    std::size_t y_floats(std::int64_t batch) const { return std::size_t(batch * out_h * out_w * k); }
    // The layer's output, pixels and channels: y for a convolution, x for a transposed one.
    std::int64_t output_pixels() const { return transposed ? x_h * x_w : out_h * out_w; }
    std::int64_t output_channels() const { return transposed ? x_c : k; }
    std::size_t output_floats(std::int64_t batch) const { return transposed ? x_floats(batch) : y_floats(batch); }
    // The cuDNN pass that runs the layer's forward, its data gradient and its filter gradient.
    ConvPass forward_pass() const { return transposed ? ConvPass::BackwardData : ConvPass::Forward; }
    ConvPass data_grad_pass() const { return transposed ? ConvPass::Forward : ConvPass::BackwardData; }
    // Keys name cuDNN's problem, so a transposed convolution and the convolution it runs
    // backwards share their answers.
    // `dtype`: lf_cuda_dtype of the tensors (16-bit ones run on tensor cores).
    ConvAlgoKey key(ConvPass pass, std::int64_t batch, int cc, int dtype = LF_CUDA_F32) const;
    // What an algorithm may use beside the tensors: twice the larger of x and y, within
    // [4 MiB, 256 MiB]; implicit-GEMM algorithms need far less, FFT and Winograd more, and the
    // heuristics rank within the budget.
    std::size_t scratch_budget(std::int64_t batch) const;
};

// The process's cache of cuDNN's choices, shared by every plan.
ConvAlgoCache& conv_algo_cache();

}  // namespace lf
