// MeanSquaredError as tf.keras computes it: mean over classes, then over the batch.
#include "train/loss_impl.h"

namespace lf::train_detail {

namespace {

class MeanSquaredError final : public Loss {
public:
    static constexpr const char* kName = "MeanSquaredError";  // no std::string in compute()
    std::string name() const override { return kName; }

    double compute(const LossBatch& b, float* grad) const override {
        return elementwise_mean(kName, b, grad, [](double x, double t) { return std::pair{(x - t) * (x - t), 2 * (x - t)}; });
    }
};

}  // namespace

std::unique_ptr<Loss> make_mean_squared_error() { return std::make_unique<MeanSquaredError>(); }

}  // namespace lf::train_detail
