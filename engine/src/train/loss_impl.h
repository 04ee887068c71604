#pragma once
// Pieces shared by the loss implementations; the factory lives in loss.cpp.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "layerforge/train/loss.h"

namespace lf::train_detail {

// Keras backend epsilon: probabilities are clipped to [kEps, 1 - kEps] before the log.
inline constexpr double kEps = 1e-7;

inline double clip_probability(double p) { return std::clamp(p, kEps, 1.0 - kEps); }
// tf.clip_by_value passes the gradient only where the input was inside the range.
inline bool inside_clip(double p) { return p >= kEps && p <= 1.0 - kEps; }

// Integer labels become targets: one-hot for c > 1, the 0/1 label itself for c == 1.
inline double target(std::int32_t label, std::int64_t j, std::int64_t c) {
    return c > 1 ? (j == label ? 1.0 : 0.0) : static_cast<double>(label);
}

// Throws lf::input_error when a label is not a class id (or not 0/1 for c == 1).
// Takes a C string so the happy path allocates nothing.
void check_labels(const char* loss, const LossBatch& b);

// Keras reduction for element-wise losses (BCE, MSE): mean over classes, then over the batch.
// term(x, t) returns {loss, d loss / d x} for one output x with target t.
template <class Term>
double elementwise_mean(const char* loss, const LossBatch& b, float* grad, Term term) {
    check_labels(loss, b);
    if (b.n <= 0 || b.c <= 0) return 0.0;
    const double scale = 1.0 / static_cast<double>(b.n * b.c);
    double sum = 0;
    for (std::int64_t i = 0; i < b.n; ++i)
        for (std::int64_t j = 0; j < b.c; ++j) {
            const std::int64_t k = i * b.c + j;
            const auto [value, slope] = term(static_cast<double>(b.output[k]), target(b.labels[i], j, b.c));
            sum += value;
            if (grad) grad[k] = static_cast<float>(slope * scale);
        }
    return sum * scale;
}

std::unique_ptr<Loss> make_categorical_crossentropy(std::string name, bool sparse, bool from_logits);
std::unique_ptr<Loss> make_binary_crossentropy(bool from_logits);
std::unique_ptr<Loss> make_mean_squared_error();

}  // namespace lf::train_detail
