#pragma once
// The sum of the trainable gradients over the ranks of a data-parallel run, done where the
// device keeps them: the host array through the communicator on the CPU, the device's buffer
// through NCCL on a GPU (which never copies a gradient to the host). DataParallel decides what
// to sum and when; an exchange only moves floats.
#include <cstddef>

#include "layerforge/core/communicator.h"

namespace lf {

class GradientExchange {
public:
    virtual ~GradientExchange() = default;
    // Multiplies gradient floats [begin, end) by `scale` (this rank's share of the global
    // batch), then starts their in-place sum over the ranks; backward must have finished them.
    // Complete after wait_all(). Every rank starts the same ranges in the same order.
    virtual void start_sum(std::size_t begin, std::size_t end, float scale) = 0;
    // Lets started sums move while backward computes (for transports that need the calls).
    virtual void progress() = 0;
    virtual void wait_all(Collective what) = 0;
    // The first n gradient floats times `factor`; 0 sets them to zero (a rank without rows).
    virtual void scale(std::size_t n, float factor) = 0;
};

}  // namespace lf
