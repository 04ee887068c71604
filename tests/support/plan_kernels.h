#pragma once
// The kernel a plan compiled for one node, as Plan::kernels() lists it.
#include <string>

#include "layerforge/graph/plan.h"

inline std::string kernel_of(const lf::Plan& plan, const std::string& node) {
    for (const auto& [id, impl] : plan.kernels())
        if (id == node) return impl;
    return "";  // no op: a view, or a layer folded into the one before it
}
