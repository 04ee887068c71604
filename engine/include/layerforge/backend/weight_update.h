#pragma once
// An optimizer's element-wise update, as a backend runs it over the trainable weights it holds
// (DeviceModel::update). The CPU backend calls it on its arrays; a device backend brings its
// own kernels for the rules it knows.
#include <cstddef>

namespace lf {

class WeightUpdate {
public:
    virtual ~WeightUpdate() = default;
    // Updates the first n floats of w from gradient g at learning rate lr, on host memory.
    virtual void step(float* w, const float* g, std::size_t n, double lr) = 0;
};

}  // namespace lf
