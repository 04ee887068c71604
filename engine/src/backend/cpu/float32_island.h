#pragma once
// Under mixed_bfloat16, a step whose op has no bfloat16 kernel (the loops, plugin layers), or
// whose buffers mix the two types (the output layer, float32 for the loss), runs its float32 op
// on float32 copies of its bf16 buffers: bf16 inputs (and, backward, the output's gradient) are
// widened before it runs, its bf16 outputs (and the inputs' gradients) rounded after.
#include <memory>

#include "backend/cpu/op.h"

namespace lf {

struct BufferTypes {
    std::vector<DType> in, in_grad;  // per input port, like OpSetup::in / in_grad
    DType out = DType::Float32, out_grad = DType::Float32;
};

using CpuOpFactory = std::unique_ptr<CpuOp> (*)(const OpSetup&);

// `setup`'s pointers address storage of the types in `types`; `make` builds the float32 op.
std::unique_ptr<CpuOp> make_float32_island(const OpSetup& setup, const BufferTypes& types, CpuOpFactory make);

}  // namespace lf
