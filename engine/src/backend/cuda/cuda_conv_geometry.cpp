#include "backend/cuda/cuda_conv_geometry.h"

#include <algorithm>

#include "layerforge/layers/layer_op.h"
#include "layerforge/layers/registry.h"

namespace lf {

CudaConvGeometry::CudaConvGeometry(const NodeInfo& n) : in_shape(n.inputs[0]) {
    const Params& p = n.params;
    window = conv_window(in_shape, param_list(p, "kernel_size"), param_list(p, "strides"), param_list(p, "dilation_rate"),
                         param_str(p, "padding"), n.spec->type);
    in_c = in_shape[2];
    out_h = window.out[0];
    out_w = window.out[1];
    filters = n.layer.output[2];
    groups = n.spec->op == LayerOp::DepthwiseConv2D ? in_c : 1;
    padded_input = window.pad_l != window.pad_r;
    if (padded_input) extra = {int(window.pad_l[0]), int(window.pad_r[0]), int(window.pad_l[1]), int(window.pad_r[1])};
    in_h = in_shape[0];
    in_w = in_shape[1];
}

lf_cuda_conv_shape CudaConvGeometry::shape(std::int64_t batch) const {
    lf_cuda_conv_shape s{};
    s.n = batch;
    s.h = in_h + extra[0] + extra[1];
    s.w = in_w + extra[2] + extra[3];
    s.c = in_c;
    s.k = filters;
    s.r = window.kernel[0];
    s.s = window.kernel[1];
    s.out_h = out_h;
    s.out_w = out_w;
    s.pad_h = padded_input ? 0 : int(window.pad_l[0]);
    s.pad_w = padded_input ? 0 : int(window.pad_l[1]);
    s.stride_h = int(window.stride[0]);
    s.stride_w = int(window.stride[1]);
    s.dilation_h = int(window.dilation[0]);
    s.dilation_w = int(window.dilation[1]);
    s.groups = int(groups);
    return s;
}

std::int64_t CudaConvGeometry::kernel_rows() const { return window.kernel[0] * window.kernel[1] * (in_c / groups); }

std::size_t CudaConvGeometry::padded_floats(std::int64_t batch) const {
    return std::size_t(batch * (in_h + extra[0] + extra[1]) * (in_w + extra[2] + extra[3]) * in_c);
}

ConvAlgoKey CudaConvGeometry::key(ConvPass pass, std::int64_t batch, int cc) const {
    return conv_algo_key(pass, batch, in_shape, filters, groups, window, "float32", "fp32", cc);
}

std::size_t CudaConvGeometry::scratch_budget(std::int64_t batch) const {
    const std::size_t in = padded_floats(batch), out = output_floats(batch);
    const std::size_t want = 2 * std::max(in, out) * sizeof(float);
    return std::clamp<std::size_t>(want, std::size_t(4) << 20, std::size_t(256) << 20);
}

ConvAlgoCache& conv_algo_cache() {
    static ConvAlgoCache cache;
    return cache;
}

}  // namespace lf
