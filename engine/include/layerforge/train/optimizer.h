#pragma once
// Optimizers as tf.keras defines them, updating one contiguous parameter buffer in a fused loop.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "layerforge/backend/weight_update.h"
#include "layerforge/core/params.h"

namespace lf {

class Optimizer : public WeightUpdate {
public:
    virtual ~Optimizer() = default;
    virtual std::string name() const = 0;
    // Sizes the state for n parameters (the model's whole buffer, so checkpoints cover every
    // weight). Called once before the first step.
    virtual void bind(std::size_t n) = 0;
    // One update of the first n floats of w (n <= the bound size: the trainable prefix) from
    // gradient g at learning rate lr; increments iterations().
    void step(float* w, const float* g, std::size_t n, double lr) override = 0;
    std::int64_t iterations() const { return iterations_; }
    void set_iterations(std::int64_t i) { iterations_ = i; }
    // Named state buffers ("m", "v", "momentum", ...) for checkpoints.
    virtual std::vector<std::pair<std::string, std::vector<float>*>> state() = 0;
    double learning_rate() const { return learning_rate_; }  // the configured base rate

protected:
    std::int64_t iterations_ = 0;
    double learning_rate_ = 0.001;
};

// Types and params (Keras defaults):
//   SGD(learning_rate=0.01, momentum=0, nesterov=false)
//   Adam(learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7)
//   AdamW(learning_rate=0.001, weight_decay=0.004, beta_1, beta_2, epsilon)
//   RMSprop(learning_rate=0.001, rho=0.9, momentum=0, epsilon=1e-7)
// Throws lf::Error (Input) naming an unknown type, unknown parameter or a value out of range.
std::unique_ptr<Optimizer> make_optimizer(const std::string& type, const Params& params);
std::vector<std::string> optimizer_types();

}  // namespace lf
