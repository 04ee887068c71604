#include "backend/cuda/cuda_conv_geometry.h"

#include <algorithm>

#include "layerforge/layers/layer_op.h"
#include "layerforge/layers/registry.h"

namespace lf {

namespace {

// The convolution a Conv2DTranspose runs backwards: over its output, down to its input, the
// padding clamped at 0 (Note [Conv2DTranspose on cuDNN]).
Window2D backwards_window(const Window2D& t) {
    Window2D w = t;
    for (std::size_t a = 0; a < 2; ++a) {
        w.in[a] = t.out[a];
        w.out[a] = t.in[a];
        w.pad_r[a] = std::max<std::int64_t>(t.pad_r[a], 0);
    }
    return w;
}

}  // namespace

CudaConvGeometry::CudaConvGeometry(const NodeInfo& n) : transposed(n.spec->op == LayerOp::Conv2DTranspose) {
    const Params& p = n.params;
    const Shape& in = n.inputs[0];
    if (transposed) {
        window = backwards_window(transposed_window(in, p));
        x_shape = n.layer.output;
        k = in[2];
    } else {
        window = conv_window(in, param_list(p, "kernel_size"), param_list(p, "strides"), param_list(p, "dilation_rate"),
                             param_str(p, "padding"), n.spec->type);
        x_shape = in;
        k = n.layer.output[2];
    }
    x_h = x_shape[0];
    x_w = x_shape[1];
    x_c = x_shape[2];
    out_h = window.out[0];
    out_w = window.out[1];
    groups = n.spec->op == LayerOp::DepthwiseConv2D ? x_c : 1;
    padded_x = window.pad_l != window.pad_r;
    if (padded_x) extra = {int(window.pad_l[0]), int(window.pad_r[0]), int(window.pad_l[1]), int(window.pad_r[1])};
}

lf_cuda_conv_shape CudaConvGeometry::shape(std::int64_t batch, int dtype) const {
    lf_cuda_conv_shape s{};
    s.dtype = dtype;
    s.n = batch;
    s.h = x_h + extra[0] + extra[1];
    s.w = x_w + extra[2] + extra[3];
    s.c = x_c;
    s.k = k;
    s.r = window.kernel[0];
    s.s = window.kernel[1];
    s.out_h = out_h;
    s.out_w = out_w;
    s.pad_h = padded_x ? 0 : int(window.pad_l[0]);
    s.pad_w = padded_x ? 0 : int(window.pad_l[1]);
    s.stride_h = int(window.stride[0]);
    s.stride_w = int(window.stride[1]);
    s.dilation_h = int(window.dilation[0]);
    s.dilation_w = int(window.dilation[1]);
    s.groups = int(groups);
    return s;
}

std::int64_t CudaConvGeometry::kernel_rows() const { return window.kernel[0] * window.kernel[1] * (x_c / groups); }

std::size_t CudaConvGeometry::padded_floats(std::int64_t batch) const {
    return std::size_t(batch * (x_h + extra[0] + extra[1]) * (x_w + extra[2] + extra[3]) * x_c);
}

ConvAlgoKey CudaConvGeometry::key(ConvPass pass, std::int64_t batch, int cc, int dtype) const {
    const char* type = dtype == LF_CUDA_BF16 ? "bfloat16" : dtype == LF_CUDA_F16 ? "float16" : "float32";
    return conv_algo_key(pass, batch, x_shape, k, groups, window, type, dtype == LF_CUDA_F32 ? "fp32" : "tensor_op", cc);
}

std::size_t CudaConvGeometry::scratch_budget(std::int64_t batch) const {
    const std::size_t x = padded_floats(batch), y = y_floats(batch);
    const std::size_t want = 2 * std::max(x, y) * sizeof(float);
    return std::clamp<std::size_t>(want, std::size_t(4) << 20, std::size_t(256) << 20);
}

ConvAlgoCache& conv_algo_cache() {
    static ConvAlgoCache cache;
    return cache;
}

}  // namespace lf
