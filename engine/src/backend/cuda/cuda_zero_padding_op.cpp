// ZeroPadding2D: the images inside zeros (pad2d), and the interior of the gradient back (crop2d).
#include "backend/cuda/cuda_op_families.h"
#include "layerforge/layers/registry.h"

namespace lf {

namespace {

class ZeroPaddingOp final : public CudaOp {
public:
    explicit ZeroPaddingOp(const CudaOpSetup& s)
        : ctx_(s.ctx), pad_(param_list(s.node.params, "padding")), in_shape_(s.node.inputs[0]), batch_(s.batch),
          in_(s.in[0]), out_(s.out), out_grad_(s.out_grad), in_grad_(s.in_grad.empty() ? nullptr : s.in_grad[0]), dtype_(s.dtype) {}

    void forward() override {
        ctx_.run([&](lf_cuda_error* e) {
            return ctx_.api().pad2d(ctx_.get(), dtype_, in_, out_, batch_, in_shape_[0], in_shape_[1], in_shape_[2], int(pad_[0]),
                                    int(pad_[1]), int(pad_[2]), int(pad_[3]), e);
        }, "zero padding");
    }
    void backward() override {
        if (!in_grad_) return;
        ctx_.run([&](lf_cuda_error* e) {
            return ctx_.api().crop2d(ctx_.get(), dtype_, out_grad_, in_grad_, batch_, in_shape_[0], in_shape_[1], in_shape_[2],
                                     int(pad_[0]), int(pad_[1]), int(pad_[2]), int(pad_[3]), e);
        }, "zero padding backward");
    }
    std::string impl_info() const override { return "lf_cuda:pad2d"; }

private:
    const CudaContext& ctx_;
    IntList pad_;  // top, bottom, left, right
    Shape in_shape_;
    std::int64_t batch_;
    const float* in_;
    float* out_;
    const float* out_grad_;
    float* in_grad_;
    int dtype_;
};

}  // namespace

const CudaOpFamily kCudaZeroPadding{
    .unsupported = nullptr, .needs = nullptr, .reads_output = nullptr,
    .make = [](const CudaOpSetup& s) -> std::unique_ptr<CudaOp> { return std::make_unique<ZeroPaddingOp>(s); },
};

}  // namespace lf
