#pragma once
// Losses as tf.keras names them. A loss sees the model output of one batch (n x c,
// row-major) and the integer class labels, returns the mean loss and writes its gradient.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "layerforge/core/params.h"

namespace lf {

struct LossBatch {
    const float* output = nullptr;        // model output, n x c
    const float* logits = nullptr;        // softmax input when the output node is Softmax over c; else null
    const std::int32_t* labels = nullptr; // n class ids (for c == 1: the 0/1 target)
    std::int64_t n = 0, c = 0;
};

class Loss {
public:
    virtual ~Loss() = default;
    virtual std::string name() const = 0;
    // Mean loss over the batch. With grad non-null, writes d(loss)/d(output) into it (n x c),
    // or d(loss)/d(logits) when fuses_softmax(b) is true.
    virtual double compute(const LossBatch& b, float* grad) const = 0;
    // True when the loss works on b.logits (cross-entropy on probabilities right after a
    // Softmax): numerically stable, and the Softmax backward is skipped by the plan.
    virtual bool fuses_softmax(const LossBatch& b) const { (void)b; return false; }
};

// Types: SparseCategoricalCrossentropy, CategoricalCrossentropy, BinaryCrossentropy,
// MeanSquaredError; params: from_logits (bool, default false) for the cross-entropies.
// Throws lf::Error (Input) naming an unknown type or parameter.
std::unique_ptr<Loss> make_loss(const std::string& type, const Params& params = {});
std::vector<std::string> loss_types();  // the built-ins, then the added ones

// A loss type added at start-up (by a plugin, through PluginRegistrar): make_loss and
// loss_types know it from then on. Train owns this table; plugins only add to it.
struct LossSpec {
    std::string type;  // as a project's training.loss names it
    std::string help;
    // Throws lf::Error (Input) for parameters it does not accept.
    std::function<std::unique_ptr<Loss>(const Params&)> make;
};
// Throws lf::Error for a type make_loss knows already, and after freeze_losses().
void add_loss(LossSpec spec);
const LossSpec* find_added_loss(const std::string& type);  // null for built-ins and unknown types
void freeze_losses();
bool losses_frozen();

}  // namespace lf
