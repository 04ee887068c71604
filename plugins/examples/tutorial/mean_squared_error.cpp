// The tutorial's MeanSquaredError: mean(square(y_pred - y_true)) over the batch and the outputs.
// Integer labels become one-hot targets (or the 0/1 target itself for a single output). The
// built-in MeanSquaredError owns that name, so the plugin registers it under its own.
#include <algorithm>
#include <memory>

#include "layerforge/core/error.h"
#include "tutorial.h"

namespace tutorial {

namespace {

class MeanSquaredError final : public lf::Loss {
public:
    std::string name() const override { return "TutorialMeanSquaredError"; }

    double compute(const lf::LossBatch& b, float* grad) const override {
        if (b.n <= 0 || b.c <= 0) return 0.0;
        const double scale = 1.0 / double(b.n * b.c);
        double sum = 0;
        for (std::int64_t i = 0; i < b.n; ++i) {
            const std::int32_t label = b.labels[i];
            if (label < 0 || label >= std::max<std::int64_t>(b.c, 2))
                throw lf::input_error("TutorialMeanSquaredError: label " + std::to_string(label) + " of sample " +
                                      std::to_string(i) + " is not a class of this output");
            for (std::int64_t j = 0; j < b.c; ++j) {
                const double target = b.c > 1 ? (j == label ? 1.0 : 0.0) : double(label);
                const double diff = double(b.output[i * b.c + j]) - target;
                sum += diff * diff;
                if (grad) grad[i * b.c + j] = float(2 * diff * scale);
            }
        }
        return sum * scale;
    }
};

}  // namespace

lf::LossSpec mean_squared_error_spec() {
    return {.type = "TutorialMeanSquaredError",
            .help = "The tutorial's custom loss: mean squared error against one-hot targets.",
            .make = [](const lf::Params& p) -> std::unique_ptr<lf::Loss> {
                if (!p.empty())
                    throw lf::input_error("TutorialMeanSquaredError takes no parameters, got '" + p.begin()->first + "'");
                return std::make_unique<MeanSquaredError>();
            }};
}

}  // namespace tutorial
