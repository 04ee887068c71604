// Runs a plain-loop LayerKernel (a plugin layer) as a CPU op of the plan.
#include "backend/cpu/ops.h"
#include "layerforge/layers/kernel.h"

namespace lf {

namespace {

class KernelOp : public CpuOp {
public:
    explicit KernelOp(std::unique_ptr<LayerKernel> k) : kernel_(std::move(k)) {}
    void forward() override { kernel_->forward(); }
    void backward() override { kernel_->backward(); }
    std::string impl_info() const override { return "plugin loop"; }

private:
    std::unique_ptr<LayerKernel> kernel_;
};

KernelSetup kernel_setup(const OpSetup& s) {
    return {.params = s.node.params, .inputs = s.node.inputs, .output = s.node.layer.output, .batch = s.batch,
            .training = s.training, .in = s.in, .in_grad = s.in_grad, .out = s.out, .out_grad = s.out_grad,
            .w = s.w, .w_grad = s.w_grad};
}

}  // namespace

std::unique_ptr<CpuOp> make_kernel_op(const OpSetup& s) {
    if (s.dry_run || !s.node.spec->kernel) return nullptr;  // a plugin kernel may touch its buffers when built
    return std::make_unique<KernelOp>(s.node.spec->kernel(kernel_setup(s)));
}

}  // namespace lf
