#pragma once
// A layer's CPU computation as plain loops over float buffers, with no oneDNN in sight: what
// plugin layers implement (the built-in layers build oneDNN ops in backend/cpu/ instead).
// Buffers are batch-first and row-major, per-sample shapes channels last (as Shape says).
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "layerforge/core/params.h"
#include "layerforge/core/shape.h"

namespace lf {

struct KernelSetup {
    Params params;              // resolved: defaults filled, kinds converted
    std::vector<Shape> inputs;  // per-sample shape at each input port
    Shape output;
    std::int64_t batch = 0;
    bool training = false;
    std::vector<const float*> in;   // batch x inputs[i].elements() each
    std::vector<float*> in_grad;    // null where the producer needs no gradient
    float* out = nullptr;
    float* out_grad = nullptr;      // d(loss)/d(out); null in inference plans
    std::vector<float*> w, w_grad;  // in LayerInfo::weights order
};

// Created once per plan with fixed buffers, so forward() and backward() must not allocate.
class LayerKernel {
public:
    virtual ~LayerKernel() = default;
    virtual void forward() = 0;
    // Reads out_grad; overwrites every non-null in_grad and every w_grad (no accumulation).
    virtual void backward() = 0;
};

using KernelFactory = std::function<std::unique_ptr<LayerKernel>(const KernelSetup&)>;

}  // namespace lf
