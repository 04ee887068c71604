#pragma once
// The CPU backend: oneDNN primitives (and plugin loops) on host memory.
#include <memory>
#include <string>

#include "backend/cpu/float32_island.h"
#include "backend/cpu/op.h"
#include "layerforge/backend/backend.h"
#include "layerforge/graph/schedule.h"

namespace lf {

std::unique_ptr<Backend> make_cpu_backend();

// Whether oneDNN's effective ISA (the CPU's, or less under DNNL_MAX_CPU_ISA) includes `level`.
bool cpu_isa_reaches(dnnl_cpu_isa_t level);

// Why the CPU backend refuses mixed_float16: oneDNN 2.6 has float16 kernels only for
// AVX512-FP16 CPUs and would emulate them here.
std::string cpu_float16_refusal();

// The CPU op of a running step (op_table.cpp), or null when the layer has nothing to run.
// `types` are the types of setup's buffers: with bf16 among them, an op with a bfloat16 kernel
// whose buffers are all bf16 computes in bf16, any other runs as a Float32Island.
// An op whose bfloat16 kernel would be one of oneDNN's slow reference ones is a Float32Island too.
struct BuiltOp {
    std::unique_ptr<CpuOp> op;
    DType compute = DType::Float32;  // what it computes in
};
BuiltOp make_cpu_op(const OpSetup& setup, const BufferTypes& types);

// Whether the CPU op of `step` will read its own output in backward(): the planner then keeps
// a ReLU after it from overwriting that buffer. The op reports the same (checked when built).
bool cpu_backward_reads_output(const ScheduledStep& step, const Schedule& schedule);

}  // namespace lf
