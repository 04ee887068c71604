#pragma once
// A Conv2D's or DepthwiseConv2D's geometry as cuDNN sees it, from the layer's own window
// (layers/window.h): the padding cuDNN applies (symmetric) and the extra padding the plan
// applies first when TensorFlow's 'same' puts more at the bottom or right; the KRSC kernel's
// size, the algorithm cache key, and the scratch budget the heuristics choose within.
#include <array>
#include <cstdint>

#include "backend/cuda/algo_cache.h"
#include "backend/cuda/cuda_api.h"
#include "layerforge/graph/model.h"
#include "layers/window.h"

namespace lf {

struct CudaConvGeometry {
    explicit CudaConvGeometry(const NodeInfo& node);

    Window2D window;
    Shape in_shape;
    std::int64_t in_h = 0, in_w = 0, in_c = 0, out_h = 0, out_w = 0, filters = 0, groups = 1;
    bool padded_input = false;         // asymmetric: the plan pads, cuDNN pads nothing
    std::array<int, 4> extra{};        // the plan's padding: top, bottom, left, right

    lf_cuda_conv_shape shape(std::int64_t batch) const;
    // Rows of the Keras kernel as a (rows x filters) matrix: kh kw (in / groups).
    std::int64_t kernel_rows() const;
    std::size_t kernel_floats() const { return std::size_t(kernel_rows() * filters); }
    std::size_t padded_floats(std::int64_t batch) const;
    std::size_t output_floats(std::int64_t batch) const { return std::size_t(batch * out_h * out_w * filters); }
    ConvAlgoKey key(ConvPass pass, std::int64_t batch, int cc) const;
    // What an algorithm may use beside the tensors: twice the larger of the input and the
    // output, within [4 MiB, 256 MiB]; implicit-GEMM algorithms need far less, FFT and
    // Winograd more, and the heuristics rank within the budget.
    std::size_t scratch_budget(std::int64_t batch) const;
};

// The process's cache of cuDNN's choices, shared by every plan.
ConvAlgoCache& conv_algo_cache();

}  // namespace lf
