#pragma once
// The out-of-memory message of the device arena: how much was asked, how much is free, and a
// batch size that fits, found with the plan's memory estimate at smaller batches.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "backend/cuda/device_arena.h"

namespace lf {

// What a plan needs in all at a batch size (the backend's estimate), and the room it has in
// all: what the arena could give plus what the failed build already held and gives back.
struct BatchFit {
    std::int64_t batch = 0;  // the batch size that did not fit
    std::function<std::uint64_t(std::int64_t)> need;
    std::uint64_t room = 0;
};

// The largest batch below fit.batch whose need fits in fit.room (need grows with the batch, so
// a bisection); 0 when not even a batch of 1 fits.
std::int64_t largest_batch_that_fits(const BatchFit& fit);

// "out of GPU memory on cuda:0 for the training plan: it asked for 1.2 GB and 0.8 GB is free
// (...); batch size 24 fits (about 0.7 GB)". `what` names what was being allocated.
std::string out_of_memory_message(const std::string& device, const std::string& what, const ArenaRefusal& refusal,
                                  const std::optional<BatchFit>& fit = std::nullopt);

}  // namespace lf
