// (Sparse)CategoricalCrossentropy as the tf.keras TensorFlow backend computes it.
#include <cmath>

#include "train/loss_impl.h"

namespace lf::train_detail {

namespace {

// Softmax cross-entropy from logits z (one row): loss = T * logsumexp(z) - sum t_j z_j with
// T = sum t_j, gradient (softmax * T - t). Max-shifted, so huge logits stay finite.
double row_from_logits(const float* z, std::int32_t label, std::int64_t c, float* g, double scale) {
    double mx = z[0];
    for (std::int64_t j = 1; j < c; ++j) mx = std::max(mx, static_cast<double>(z[j]));
    // exp(z_j - mx) is needed twice (the sum, then softmax = e_j / sum): for the usual class
    // counts keep it on the stack instead of calling exp() a second time per class.
    constexpr std::int64_t kKeep = 64;
    double e[kKeep];
    const bool keep = g && c <= kKeep;
    double sum = 0;
    for (std::int64_t j = 0; j < c; ++j) {
        const double ej = std::exp(z[j] - mx);
        if (keep) e[j] = ej;
        sum += ej;
    }
    const double lse = mx + std::log(sum);
    double loss = 0, total = 0;
    for (std::int64_t j = 0; j < c; ++j) {
        const double t = target(label, j, c);
        loss += t * (lse - z[j]);
        total += t;
    }
    if (keep)
        for (std::int64_t j = 0; j < c; ++j)
            g[j] = static_cast<float>((e[j] / sum * total - target(label, j, c)) * scale);
    else if (g)
        for (std::int64_t j = 0; j < c; ++j)
            g[j] = static_cast<float>((std::exp(z[j] - lse) * total - target(label, j, c)) * scale);
    return loss;
}

// CategoricalCrossentropy on probabilities: Keras rescales the row to sum 1, then clips,
// then takes -sum t log q. The gradient goes back through the clip mask and the rescale.
double row_categorical(const float* p, std::int32_t label, std::int64_t c, float* g, double scale) {
    double s = 0;
    for (std::int64_t j = 0; j < c; ++j) s += p[j];
    double loss = 0, dot = 0;  // dot = sum_j dL/dq_j * q_j, the rescale's share of the gradient
    for (std::int64_t j = 0; j < c; ++j) {
        const double q = p[j] / s, t = target(label, j, c);
        loss -= t * std::log(clip_probability(q));
        if (inside_clip(q)) dot -= t;  // (-t / q) * q
    }
    if (g)
        for (std::int64_t j = 0; j < c; ++j) {
            const double q = p[j] / s;
            const double dq = inside_clip(q) ? -target(label, j, c) / q : 0.0;
            g[j] = static_cast<float>((dq - dot) / s * scale);
        }
    return loss;
}

// SparseCategoricalCrossentropy on probabilities: Keras clips first and then feeds log(p) to
// a softmax cross-entropy, i.e. loss = -log(pc_label / sum pc).
double row_sparse(const float* p, std::int32_t label, std::int64_t c, float* g, double scale) {
    double s = 0, loss = 0, total = 0;
    for (std::int64_t j = 0; j < c; ++j) {
        const double t = target(label, j, c);
        s += clip_probability(p[j]);
        loss -= t * std::log(clip_probability(p[j]));
        total += t;
    }
    loss += total * std::log(s);
    if (g)
        for (std::int64_t j = 0; j < c; ++j) {
            const double pc = clip_probability(p[j]);
            const double d = -target(label, j, c) / pc + total / s;
            g[j] = static_cast<float>(inside_clip(p[j]) ? d * scale : 0.0);
        }
    return loss;
}

class CategoricalCrossentropy final : public Loss {
public:
    CategoricalCrossentropy(std::string name, bool sparse, bool from_logits)
        : name_(std::move(name)), sparse_(sparse), from_logits_(from_logits) {}

    std::string name() const override { return name_; }

    // Like Keras, which finds the Softmax op under a probability output and uses its input.
    bool fuses_softmax(const LossBatch& b) const override { return !from_logits_ && b.logits; }

    double compute(const LossBatch& b, float* grad) const override {
        check_labels(name_.c_str(), b);
        if (b.n <= 0) return 0.0;
        const bool fused = fuses_softmax(b);
        const float* x = fused ? b.logits : b.output;
        auto row = (fused || from_logits_) ? row_from_logits : (sparse_ ? row_sparse : row_categorical);
        const double scale = 1.0 / static_cast<double>(b.n);
        double sum = 0;
        for (std::int64_t i = 0; i < b.n; ++i)
            sum += row(x + i * b.c, b.labels[i], b.c, grad ? grad + i * b.c : nullptr, scale);
        return sum * scale;
    }

private:
    std::string name_;
    bool sparse_, from_logits_;
};

}  // namespace

std::unique_ptr<Loss> make_categorical_crossentropy(std::string name, bool sparse, bool from_logits) {
    return std::make_unique<CategoricalCrossentropy>(std::move(name), sparse, from_logits);
}

}  // namespace lf::train_detail
