#pragma once
// An optimizer's element-wise update, as a backend runs it over the trainable weights it holds
// (DeviceModel::update). The CPU backend calls step() on its arrays, or, in a training plan's
// backward_and_update, takes the step and runs its host loop (backend/host_update.h) in bands,
// each followed by the plan's copies of those weights; a device backend asks the rule for the
// coming step (take_step) and runs that step's loop in its own kernel.
//
// Note [A rule's step on a device]
// The rule stays the one place that knows its hyper-parameters, computes a step's constants
// (Adam's bias-corrected step size, ...) and counts iterations; its host step() is the host
// loop over the very constants take_step() returns. A device backend keeps copies of the rule's
// state arrays in device memory, fills them from the host arrays before its first step (and
// after the host state changed: a resumed run), and copies them back with the weights
// (DeviceModel::pull_weights), which is when checkpoints read them.
#include <array>
#include <cstddef>
#include <optional>

namespace lf {

struct UpdateStep {
    enum class Rule { Sgd, Momentum, Nesterov, Adam, RmsProp };
    Rule rule = Rule::Sgd;
    // The loop's float32 constants: SGD a (= lr), mu; Adam a (bias-corrected), decay (lr x
    // weight decay), b1 = 1 - beta_1, b2 = 1 - beta_2, eps; RMSprop a, rho, mu, eps.
    float a = 0, mu = 0, decay = 0, b1 = 0, b2 = 0, eps = 0, rho = 0;
    // The host state arrays the loop updates (n floats used of each; null where the rule has
    // none): SGD its velocity (with momentum); Adam m, v; RMSprop v, its momentum. A fixed
    // array: the CPU's step() goes through take_step() and allocates nothing.
    std::array<float*, 2> state{};
};

class WeightUpdate {
public:
    virtual ~WeightUpdate() = default;
    // Updates the first n floats of w from gradient g at learning rate lr, on host memory.
    virtual void step(float* w, const float* g, std::size_t n, double lr) = 0;
    // The coming step over the first n weights at learning rate lr, counted as taken (the
    // caller runs it); nullopt when the rule has no such form, and then nothing is counted.
    virtual std::optional<UpdateStep> take_step(std::size_t, double) { return std::nullopt; }
};

}  // namespace lf
