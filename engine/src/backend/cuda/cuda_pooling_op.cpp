// MaxPool2D, AveragePooling2D and the global poolings on the module's window kernels: the
// window from the layer's own geometry (layers/window.h, TensorFlow's 'same', explicit padding
// and ceil mode included), a global pooling as one window over the whole image. Max pooling
// keeps the winner of each window (the first largest, never padding, as oneDNN and the CPU
// loops choose) for its backward; averages divide by the window's valid elements unless
// count_include_pad.
#include "backend/cuda/cuda_op_families.h"
#include "layerforge/layers/layer_op.h"
#include "layerforge/layers/registry.h"
#include "layers/window.h"

namespace lf {

namespace {

bool is_max(const NodeInfo& n) {
    return n.spec->op == LayerOp::MaxPool2D || n.spec->op == LayerOp::GlobalMaxPooling2D;
}

lf_cuda_pool_shape pool_shape(const NodeInfo& n, std::int64_t batch, int dtype) {
    const Shape& in = n.inputs[0];
    lf_cuda_pool_shape p{};
    p.dtype = dtype;
    p.n = batch;
    p.h = in[0];
    p.w = in[1];
    p.c = in[2];
    if (n.spec->op == LayerOp::GlobalAveragePooling2D || n.spec->op == LayerOp::GlobalMaxPooling2D) {
        p.out_h = p.out_w = 1;
        p.kernel_h = int(p.h);
        p.kernel_w = int(p.w);
        p.stride_h = p.stride_w = 1;
    } else {
        const Window2D w = pool_window(in, n.params, n.spec->type);
        p.out_h = w.out[0];
        p.out_w = w.out[1];
        p.kernel_h = int(w.kernel[0]);
        p.kernel_w = int(w.kernel[1]);
        p.stride_h = int(w.stride[0]);
        p.stride_w = int(w.stride[1]);
        p.pad_top = int(w.pad_l[0]);
        p.pad_left = int(w.pad_l[1]);
    }
    const bool include_pad = n.spec->op == LayerOp::AveragePooling2D && param_bool(n.params, "count_include_pad");
    p.mode = is_max(n) ? LF_CUDA_POOL_MAX : include_pad ? LF_CUDA_POOL_AVG_INCLUDE_PAD : LF_CUDA_POOL_AVG_EXCLUDE_PAD;
    return p;
}

std::size_t output_count(const lf_cuda_pool_shape& p) { return std::size_t(p.n * p.out_h * p.out_w * p.c); }

class PoolingOp final : public CudaOp {
public:
    explicit PoolingOp(const CudaOpSetup& s)
        : ctx_(s.ctx), p_(pool_shape(s.node, s.batch, s.dtype)), in_(s.in[0]), out_(s.out), out_grad_(s.out_grad),
          in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]),
          argmax_(is_max(s.node) && s.training ? reinterpret_cast<std::int32_t*>(s.workspace) : nullptr) {}

    void forward() override {
        ctx_.run([&](lf_cuda_error* e) { return ctx_.api().pool_forward(ctx_.get(), &p_, in_, out_, argmax_, e); },
                 "pooling");
    }
    void backward() override {
        if (!in_grad_) return;
        ctx_.run([&](lf_cuda_error* e) {
            return ctx_.api().pool_backward(ctx_.get(), &p_, out_grad_, argmax_, in_grad_, e);
        }, "pooling backward");
    }
    std::string impl_info() const override {
        return std::string("lf_cuda:pool_") + (p_.mode == LF_CUDA_POOL_MAX ? "max" : "avg");
    }

private:
    const CudaContext& ctx_;
    lf_cuda_pool_shape p_;
    const float* in_;
    float* out_;
    const float* out_grad_;
    float* in_grad_;
    std::int32_t* argmax_;  // per output: the winning pixel of its image
};

}  // namespace

const CudaOpFamily kCudaPooling{
    .unsupported = nullptr,
    .needs = [](const NodeInfo& n, std::int64_t batch, bool training, DType) {
        static_assert(sizeof(std::int32_t) == sizeof(float), "the argmax lies in float slots");
        const bool argmax = is_max(n) && training;
        return CudaOpNeeds{.workspace_floats = argmax ? output_count(pool_shape(n, batch, LF_CUDA_F32)) : 0};
    },
    .reads_output = nullptr,
    .make = [](const CudaOpSetup& s) -> std::unique_ptr<CudaOp> { return std::make_unique<PoolingOp>(s); },
};

}  // namespace lf
