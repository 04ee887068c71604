// BinaryCrossentropy as tf.keras computes it: per element, then mean over classes and batch.
#include <cmath>

#include "train/loss_impl.h"

namespace lf::train_detail {

namespace {

double sigmoid(double z) {
    if (z >= 0) return 1.0 / (1.0 + std::exp(-z));
    const double e = std::exp(z);  // never overflows for z < 0
    return e / (1.0 + e);
}

class BinaryCrossentropy final : public Loss {
public:
    explicit BinaryCrossentropy(bool from_logits) : from_logits_(from_logits) {}

    static constexpr const char* kName = "BinaryCrossentropy";  // no std::string in compute()
    std::string name() const override { return kName; }

    double compute(const LossBatch& b, float* grad) const override {
        return elementwise_mean(kName, b, grad, [this](double x, double t) {
            if (from_logits_)  // tf.nn.sigmoid_cross_entropy_with_logits: max(x,0) - x t + log(1 + e^-|x|)
                return std::pair{std::max(x, 0.0) - x * t + std::log1p(std::exp(-std::abs(x))), sigmoid(x) - t};
            const double p = clip_probability(x);
            return std::pair{-(t * std::log(p) + (1 - t) * std::log(1 - p)),
                             inside_clip(x) ? -t / p + (1 - t) / (1 - p) : 0.0};
        });
    }

private:
    bool from_logits_;
};

}  // namespace

std::unique_ptr<Loss> make_binary_crossentropy(bool from_logits) {
    return std::make_unique<BinaryCrossentropy>(from_logits);
}

}  // namespace lf::train_detail
