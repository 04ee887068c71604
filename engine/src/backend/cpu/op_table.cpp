// The CPU backend's op table: one factory per LayerOp, in enum order (checked at compile time),
// and what each op's backward reads, for the planner's in-place decisions.
#include <algorithm>
#include <set>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/float32_island.h"
#include "backend/cpu/ops.h"

namespace lf {

namespace {

using CpuFactory = CpuOpFactory;

constexpr OpTableEntry<CpuFactory> kCpuOps[] = {
    {LayerOp::Input, nullptr},
    {LayerOp::Dense, make_dense_op},
    {LayerOp::Flatten, nullptr},  // views: the output aliases the input
    {LayerOp::Reshape, nullptr},
    {LayerOp::ZeroPadding2D, make_zero_padding_op},
    {LayerOp::Activation, make_activation_op},
    {LayerOp::ReLU, make_activation_op},
    {LayerOp::LeakyReLU, make_activation_op},
    {LayerOp::Sigmoid, make_activation_op},
    {LayerOp::Tanh, make_activation_op},
    {LayerOp::GELU, make_activation_op},
    {LayerOp::Softmax, make_activation_op},
    {LayerOp::Dropout, make_dropout_op},
    {LayerOp::Add, make_add_op},
    {LayerOp::Concatenate, make_concatenate_op},
    {LayerOp::Multiply, make_multiply_op},
    {LayerOp::Conv2D, make_conv_op},
    {LayerOp::DepthwiseConv2D, make_conv_op},
    {LayerOp::Conv2DTranspose, make_conv_op},
    {LayerOp::MaxPool2D, make_pooling_op},
    {LayerOp::AveragePooling2D, make_pooling_op},
    {LayerOp::GlobalAveragePooling2D, make_global_pooling_op},
    {LayerOp::GlobalMaxPooling2D, make_global_pooling_op},
    {LayerOp::BatchNormalization, make_batch_norm_op},
    {LayerOp::Plugin, make_kernel_op},
};
static_assert(in_step(kCpuOps), "kCpuOps must list every LayerOp once, in enum order");

// The activation a Dense or convolution applies after its primitive, after the rewrites.
std::string post_activation_of(const ScheduledStep& step) {
    const StepRewrites& r = step.rewrites;
    if (!r.folded_norm.empty()) return r.folded_norm_relu ? "relu" : "linear";
    if (r.relu_moved_out) return "linear";
    return param_str(step.info->params, "activation");
}

// PostActivation::reads_output(): a fused activation differentiated from its output (training
// plans with a gradient), or a softmax.
bool post_activation_reads_output(const std::string& name, const ScheduledStep& step, const Schedule& schedule) {
    static const std::set<std::string> fused{"relu", "sigmoid", "tanh", "elu", "exponential"};
    if (name == "softmax") return true;
    return fused.count(name) && schedule.options.training && step.grad != kNoBuffer;
}

// The ops built on oneDNN primitives, which all have bfloat16 kernels; the loops do not.
bool has_bf16_kernel(const NodeInfo& node) {
    switch (node.spec->op) {
    case LayerOp::Dense:
    case LayerOp::Conv2D:
    case LayerOp::DepthwiseConv2D:
    case LayerOp::Conv2DTranspose:
    case LayerOp::MaxPool2D:
    case LayerOp::AveragePooling2D:
    case LayerOp::BatchNormalization:
    case LayerOp::Add:
    case LayerOp::Concatenate:
    case LayerOp::Activation:
    case LayerOp::LeakyReLU:
    case LayerOp::Sigmoid:
    case LayerOp::Tanh:
    case LayerOp::GELU:
    case LayerOp::Softmax: return true;
    case LayerOp::ReLU: {  // ActivationKernel's loop form (a threshold, or a cap with a slope)
        const Params& p = node.params;
        return param_float(p, "threshold") == 0 &&
               (param_float(p, "max_value") <= 0 || param_float(p, "negative_slope") == 0);
    }
    default: return false;
    }
}

bool all_bf16(const BufferTypes& t, const OpSetup& s) {
    auto bf16 = [](DType d, const void* p) { return !p || d == DType::BFloat16; };
    for (std::size_t i = 0; i < s.in.size(); ++i)
        if (!bf16(t.in[i], s.in[i]) || (i < s.in_grad.size() && !bf16(t.in_grad[i], s.in_grad[i]))) return false;
    return bf16(t.out, s.out) && bf16(t.out_grad, s.out_grad);
}

bool any_bf16(const BufferTypes& t) {
    auto is = [](DType d) { return d == DType::BFloat16; };
    return is(t.out) || is(t.out_grad) || std::any_of(t.in.begin(), t.in.end(), is) ||
           std::any_of(t.in_grad.begin(), t.in_grad.end(), is);
}

// oneDNN's plain C++ implementations, many times slower than its jit kernels.
bool is_slow_kernel(const std::string& impl) {
    for (const char* slow : {"ref:", "ref,", "nspc_bnorm:any", "ncsp_bnorm:any"})
        if (impl.find(slow) != std::string::npos) return true;
    return impl.rfind("ref", 0) == 0;
}

}  // namespace

BuiltOp make_cpu_op(const OpSetup& setup, const BufferTypes& types) {
    CpuFactory make = kCpuOps[std::size_t(setup.node.spec->op)].make;
    if (!make) return {};
    if (!any_bf16(types)) return {make(setup), DType::Float32};
    if (has_bf16_kernel(setup.node) && all_bf16(types, setup)) {
        OpSetup bf16 = setup;
        bf16.dtype = DType::BFloat16;
        std::unique_ptr<CpuOp> op;
        try {
            op = make(bf16);
        } catch (const dnnl::error&) {
            // Below AVX-512 oneDNN has no bfloat16 kernel at all, not even an emulated one, and the
            // policy is refused there (CpuBackend::precision_unsupported). An estimate still
            // describes the plan the policy makes, with the float32 kernel's workspace counted
            // in place of the one this CPU cannot build.
            if (!setup.dry_run || cpu_isa_reaches(dnnl_cpu_isa_avx512_core)) throw;
            return {make(setup), DType::BFloat16};
        }
        // oneDNN has no jit bf16 kernel for some shapes (a batch normalisation of 8 or 24
        // channels gets nspc_bnorm:any, 15x slower than float32): float32 between conversions.
        if (!is_slow_kernel(op->impl_info())) return {std::move(op), DType::BFloat16};
    }
    return {make_float32_island(setup, types, make), DType::Float32};
}

bool cpu_backward_reads_output(const ScheduledStep& step, const Schedule& schedule) {
    const LayerOp op = step.info->spec->op;
    if (op == LayerOp::Dense || is_convolution_op(op)) return post_activation_reads_output(post_activation_of(step), step, schedule);
    if (op == LayerOp::MaxPool2D || op == LayerOp::AveragePooling2D)
        return post_activation_reads_output(step.rewrites.relu_after ? "relu" : "linear", step, schedule);
    if (is_activation_op(op))
        return step.rewrites.in_place || op == LayerOp::Softmax ||
               (op == LayerOp::Activation && param_str(step.info->params, "activation") == "softmax");
    switch (op) {
    case LayerOp::BatchNormalization:  // its input, statistics and workspace
    case LayerOp::Dropout:             // its mask
    case LayerOp::Add:
    case LayerOp::Concatenate:
    case LayerOp::Multiply:  // its inputs
        return false;
    default: return true;  // global pooling, padding, plugin loops: assumed to
    }
}

}  // namespace lf
