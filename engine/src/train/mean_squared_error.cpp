// MeanSquaredError as tf.keras computes it: mean over classes, then over the batch.
#include "train/loss_impl.h"

namespace lf::train_detail {

namespace {

class MeanSquaredError final : public Loss {
public:
    static constexpr const char* kName = "MeanSquaredError";  // no std::string in compute()
    std::string name() const override { return kName; }

    double compute(const LossBatch& b, float* grad) const override {
        check_labels(kName, b);
        if (b.n <= 0 || b.c <= 0) return 0.0;
        const double scale = 1.0 / static_cast<double>(b.n * b.c);
        double sum = 0;
        for (std::int64_t i = 0; i < b.n; ++i)
            for (std::int64_t j = 0; j < b.c; ++j) {
                const std::int64_t k = i * b.c + j;
                const double e = b.output[k] - target(b.labels[i], j, b.c);
                sum += e * e;
                if (grad) grad[k] = static_cast<float>(2.0 * e * scale);
            }
        return sum * scale;
    }
};

}  // namespace

std::unique_ptr<Loss> make_mean_squared_error() { return std::make_unique<MeanSquaredError>(); }

}  // namespace lf::train_detail
