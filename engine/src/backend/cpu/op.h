#pragma once
// The CPU backend's compiled operation: one per graph node, created once per plan with fixed
// buffer pointers, so forward() and backward() only execute prebuilt oneDNN primitives or loops.
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "backend/cpu/scratchpad.h"
#include "layerforge/core/precision.h"
#include "layerforge/graph/analysis.h"

namespace lf {

class LayoutCopy;
class Model;

struct CpuContext {
    dnnl::engine eng{dnnl::engine::kind::cpu, 0};
    dnnl::stream strm{eng};
    Scratchpad scratch;  // every primitive's scratchpad, one buffer per plan
    const Model* model = nullptr;             // whose weights the ops read (null: a count-only plan, or other memory)
    std::vector<LayoutCopy*> weight_copies;  // the ops' copies of those weights, for the update to make
};

struct OpSetup {
    CpuContext& ctx;
    const NodeInfo& node;
    std::int64_t batch = 0;
    bool training = false;  // false also for a frozen layer that needs no gradient: it runs as at inference
    // trainable: false (ScheduledStep::frozen): no weight gradients; a BatchNormalization uses
    // and keeps its moving statistics.
    bool frozen = false;
    std::uint64_t seed = 0;
    std::int64_t first_row = 0;     // ScheduleOptions::first_row
    std::vector<const float*> in;   // one per input port
    std::vector<float*> in_grad;    // null where the producer needs no gradient
    float* out = nullptr;
    float* out_grad = nullptr;      // null in inference plans
    std::vector<float*> w, w_grad;  // in LayerInfo::weights order
    bool fuse_relu = false;         // BatchNormalization: apply the ReLU that is its only consumer
    // ReLU moved past max pooling (relu(maxpool(x)) == maxpool(relu(x)), gradients too): the
    // convolution leaves out its relu activation and the MaxPool2D after it applies it, to a
    // quarter of the values, so the ReLU's backward pass reads a quarter of the bytes.
    bool relu_moved_out = false;    // Conv2D family: skip the `activation: relu`
    bool relu_after = false;        // MaxPool2D: apply relu to the pooled output
    bool dry_run = false;           // an estimate: buffers are placeholders, build but never run
    // The type of every activation and activation-gradient buffer above (bfloat16: the pointers
    // address bf16 storage; only ops with a bfloat16 kernel are built so, the others run inside
    // a Float32Island). Weights, weight gradients and statistics are always float32.
    DType dtype = DType::Float32;
    // Inference plans: the BatchNormalization that is a Conv2D's or DepthwiseConv2D's only
    // consumer, folded into the convolution's kernel and bias, so its pass over the activations
    // disappears; `relu` when that BatchNormalization had absorbed the ReLU after it.
    struct FoldedNorm {
        const float *gamma, *beta, *moving_mean, *moving_variance;
        float epsilon;
        bool relu;
    };
    std::optional<FoldedNorm> folded_norm;
};

// A layer whose output is softmax(logits) over the last axis. A cross-entropy loss then writes
// d(loss)/d(logits) straight into logits_grad, which is stable and skips the softmax backward.
struct SoftmaxTail {
    const float* logits;
    float* logits_grad;
};

class CpuOp {
public:
    virtual ~CpuOp() = default;
    virtual void forward() = 0;
    virtual void backward() = 0;
    virtual std::string impl_info() const { return "loop"; }
    virtual std::optional<SoftmaxTail> softmax_tail() { return std::nullopt; }
    virtual void fuse_softmax_into_loss(bool on) { (void)on; }
    // Ops with a per-step random stream (Dropout) continue from training step `step` (resume).
    virtual void seek_rng(std::uint64_t step) { (void)step; }
    // Bytes the op holds beyond the plan's buffers: reordered weights, pooling indices, statistics.
    virtual std::size_t workspace_bytes() const { return 0; }
    // Whether backward() reads this op's output buffer; a ReLU after it may overwrite that
    // buffer in place only when it does not.
    virtual bool backward_reads_output() const { return true; }
};

// Helpers shared by the ops.
inline dnnl::memory::data_type dnnl_type(DType t) {
    return t == DType::BFloat16 ? dnnl::memory::data_type::bf16 : dnnl::memory::data_type::f32;
}

inline dnnl::memory::desc plain_md(const dnnl::memory::dims& dims, DType t = DType::Float32) {
    using tag = dnnl::memory::format_tag;
    static const tag tags[] = {tag::a, tag::ab, tag::abc, tag::abcd, tag::abcde};
    return dnnl::memory::desc(dims, dnnl_type(t), tags[dims.size() - 1]);
}

inline dnnl::memory wrap(const dnnl::memory::desc& md, const CpuContext& ctx, const float* p) {
    return dnnl::memory(md, ctx.eng, const_cast<float*>(p));
}

// Executes a primitive without touching the heap: dnnl.hpp's execute(stream, map) builds a
// std::vector of C arguments on every call, and reorder::execute(stream, from, to) a map too.
// The arguments go through a fixed array on the stack instead.
inline void run(const dnnl::primitive& p, const dnnl::stream& s, const std::unordered_map<int, dnnl::memory>& args) {
    dnnl_exec_arg_t c_args[32];
    if (args.size() > std::size(c_args)) return p.execute(s, args);  // an Add of more than 31 inputs
    int n = 0;
    for (const auto& [arg, mem] : args) c_args[n++] = {arg, mem.get()};
    dnnl::error::wrap_c_api(dnnl_primitive_execute(p.get(), s.get(), n, c_args), "could not execute a primitive");
}

// `scratch` is the reorder's scratchpad from Scratchpad::bind, empty when it needs none.
inline void run_reorder(const dnnl::primitive& r, const dnnl::stream& s, const dnnl::memory& from,
                        const dnnl::memory& to, const dnnl::memory& scratch) {
    const dnnl_exec_arg_t c_args[] = {
        {DNNL_ARG_FROM, from.get()}, {DNNL_ARG_TO, to.get()}, {DNNL_ARG_SCRATCHPAD, scratch.get(true)}};
    dnnl::error::wrap_c_api(dnnl_primitive_execute(r.get(), s.get(), scratch ? 3 : 2, c_args),
                            "could not execute a reorder");
}

}  // namespace lf
