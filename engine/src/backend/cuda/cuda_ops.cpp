// The CUDA backend's op table: one family per LayerOp, in enum order (checked at compile time).
#include "backend/cuda/cuda_ops.h"

#include "backend/cuda/cuda_op_families.h"
#include "layerforge/layers/layer_op.h"

namespace lf {

const CudaOpFamily kCudaUnsupported{
    .unsupported = [](const NodeInfo&) -> std::string { return " has no CUDA kernel yet; train this model on the CPU"; },
    .needs = nullptr, .reads_output = nullptr, .make = nullptr,
};

namespace {

const CudaOpFamily kCudaView{};  // Input, Flatten, Reshape: nothing runs (the output aliases the input)

constexpr OpTableEntry<const CudaOpFamily*> kCudaOps[] = {
    {LayerOp::Input, &kCudaView},
    {LayerOp::Dense, &kCudaDense},
    {LayerOp::Flatten, &kCudaView},
    {LayerOp::Reshape, &kCudaView},
    {LayerOp::ZeroPadding2D, &kCudaZeroPadding},
    {LayerOp::Activation, &kCudaActivation},
    {LayerOp::ReLU, &kCudaActivation},
    {LayerOp::LeakyReLU, &kCudaActivation},
    {LayerOp::Sigmoid, &kCudaActivation},
    {LayerOp::Tanh, &kCudaActivation},
    {LayerOp::GELU, &kCudaActivation},
    {LayerOp::Softmax, &kCudaActivation},
    {LayerOp::Dropout, &kCudaDropout},
    {LayerOp::Add, &kCudaAdd},
    {LayerOp::Concatenate, &kCudaConcatenate},
    {LayerOp::Multiply, &kCudaMultiply},
    {LayerOp::Conv2D, &kCudaConv},
    {LayerOp::DepthwiseConv2D, &kCudaConv},
    {LayerOp::Conv2DTranspose, &kCudaConv},
    {LayerOp::MaxPool2D, &kCudaPooling},
    {LayerOp::AveragePooling2D, &kCudaPooling},
    {LayerOp::GlobalAveragePooling2D, &kCudaPooling},
    {LayerOp::GlobalMaxPooling2D, &kCudaPooling},
    {LayerOp::BatchNormalization, &kCudaBatchNorm},
    {LayerOp::Plugin, &kCudaUnsupported},
};
static_assert(in_step(kCudaOps), "kCudaOps must list every LayerOp once, in enum order");

const CudaOpFamily& family(const NodeInfo& n) { return *kCudaOps[std::size_t(n.spec->op)].make; }

}  // namespace

std::string cuda_op_unsupported(const ScheduledStep& step) {
    if (!step.runs) return "";
    const CudaOpFamily& f = family(*step.info);
    const std::string why = f.unsupported ? f.unsupported(*step.info) : "";
    return why.empty() ? "" : "layer '" + step.node + "' (" + step.info->spec->type + ")" + why;
}

CudaOpNeeds cuda_op_needs(const ScheduledStep& step, std::int64_t batch, bool training, DType dtype) {
    if (!step.runs) return {};
    const CudaOpFamily& f = family(*step.info);
    return f.needs ? f.needs(*step.info, batch, training, dtype) : CudaOpNeeds{};
}

int cuda_dtype(DType t) { return t == DType::BFloat16 ? LF_CUDA_BF16 : t == DType::Float16 ? LF_CUDA_F16 : LF_CUDA_F32; }

bool cuda_backward_reads_output(const ScheduledStep& step, const Schedule&) {
    if (!step.runs) return false;
    const CudaOpFamily& f = family(*step.info);
    return f.reads_output && f.reads_output(*step.info);
}

std::unique_ptr<CudaOp> make_cuda_op(const CudaOpSetup& s) { return family(s.node).make(s); }

}  // namespace lf
