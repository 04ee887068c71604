#pragma once
// Plain-loop kernels (plugin layers) as CPU ops of the plan.
#include <functional>
#include <memory>

#include "backend/cpu/op.h"
#include "layerforge/layers/kernel.h"

namespace lf {

// The LayerSpec::make_cpu of a layer whose computation is a LayerKernel.
std::function<std::unique_ptr<CpuOp>(const OpSetup&)> cpu_op_factory(KernelFactory make_kernel);

}  // namespace lf
