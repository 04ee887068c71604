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
        check_labels(kName, b);
        if (b.n <= 0 || b.c <= 0) return 0.0;
        const double scale = 1.0 / static_cast<double>(b.n * b.c);
        double sum = 0;
        for (std::int64_t i = 0; i < b.n; ++i)
            for (std::int64_t j = 0; j < b.c; ++j) {
                const std::int64_t k = i * b.c + j;
                const double x = b.output[k], t = target(b.labels[i], j, b.c);
                double d;
                if (from_logits_) {
                    // tf.nn.sigmoid_cross_entropy_with_logits: max(x,0) - x t + log(1 + e^-|x|)
                    sum += std::max(x, 0.0) - x * t + std::log1p(std::exp(-std::abs(x)));
                    d = sigmoid(x) - t;
                } else {
                    const double p = clip_probability(x);
                    sum -= t * std::log(p) + (1 - t) * std::log(1 - p);
                    d = inside_clip(x) ? -t / p + (1 - t) / (1 - p) : 0.0;
                }
                if (grad) grad[k] = static_cast<float>(d * scale);
            }
        return sum * scale;
    }

private:
    bool from_logits_;
};

}  // namespace

std::unique_ptr<Loss> make_binary_crossentropy(bool from_logits) {
    return std::make_unique<BinaryCrossentropy>(from_logits);
}

}  // namespace lf::train_detail
