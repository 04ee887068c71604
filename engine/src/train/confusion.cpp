#include "layerforge/train/confusion.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lf {

ConfusionMatrix::ConfusionMatrix(std::int64_t classes)
    : classes_(std::max<std::int64_t>(0, classes)), counts_(std::size_t(classes_ * classes_), 0) {}

void ConfusionMatrix::add(std::int32_t truth, std::int32_t predicted, std::int64_t count) {
    if (truth < 0 || predicted < 0 || truth >= classes_ || predicted >= classes_) return;
    counts_[std::size_t(truth * classes_ + predicted)] += count;
}

std::int64_t ConfusionMatrix::row_total(std::int64_t truth) const {
    std::int64_t sum = 0;
    for (std::int64_t p = 0; p < classes_; ++p) sum += at(truth, p);
    return sum;
}

std::int64_t ConfusionMatrix::column_total(std::int64_t predicted) const {
    std::int64_t sum = 0;
    for (std::int64_t t = 0; t < classes_; ++t) sum += at(t, predicted);
    return sum;
}

std::int64_t ConfusionMatrix::total() const { return std::accumulate(counts_.begin(), counts_.end(), std::int64_t(0)); }

std::int64_t ConfusionMatrix::correct() const {
    std::int64_t sum = 0;
    for (std::int64_t c = 0; c < classes_; ++c) sum += at(c, c);
    return sum;
}

double ConfusionMatrix::accuracy() const {
    const std::int64_t n = total();
    return n ? double(correct()) / double(n) : 0.0;
}

double ConfusionMatrix::row_fraction(std::int64_t truth, std::int64_t predicted) const {
    const std::int64_t n = row_total(truth);
    return n ? double(at(truth, predicted)) / double(n) : 0.0;
}

std::vector<ClassScores> class_scores(const ConfusionMatrix& m) {
    std::vector<ClassScores> out(std::size_t(m.classes()));
    for (std::int64_t c = 0; c < m.classes(); ++c) {
        ClassScores& s = out[std::size_t(c)];
        const double hit = double(m.at(c, c));
        const std::int64_t predicted = m.column_total(c);
        s.support = m.row_total(c);
        s.precision = predicted ? hit / double(predicted) : 0.0;
        s.recall = s.support ? hit / double(s.support) : 0.0;
        s.f1 = s.precision + s.recall > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0.0;
    }
    return out;
}

ClassScores macro_average(const std::vector<ClassScores>& scores) {
    ClassScores mean;
    std::int64_t n = 0;
    for (const ClassScores& s : scores) {
        if (!s.support) continue;
        mean.precision += s.precision, mean.recall += s.recall, mean.f1 += s.f1, mean.support += s.support, ++n;
    }
    if (n) mean.precision /= double(n), mean.recall /= double(n), mean.f1 /= double(n);
    return mean;
}

std::int32_t predicted_class(const float* output, std::int64_t width) {
    if (width == 1) return output[0] > 0.5f ? 1 : 0;
    return std::int32_t(std::max_element(output, output + width) - output);
}

void add_predictions(ConfusionMatrix& m, const float* outputs, const std::int32_t* labels, std::int64_t n,
                     std::int64_t width) {
    for (std::int64_t i = 0; i < n; ++i) m.add(labels[i], predicted_class(outputs + i * width, width));
}

void to_probabilities(float* v, std::int64_t width) {
    double sum = 0;
    bool probabilities = true;
    for (std::int64_t i = 0; i < width; ++i) probabilities = probabilities && v[i] >= 0, sum += v[i];
    if (probabilities && std::abs(sum - 1) < 1e-3) return;
    const float top = *std::max_element(v, v + width);
    sum = 0;
    for (std::int64_t i = 0; i < width; ++i) sum += v[i] = std::exp(v[i] - top);
    for (std::int64_t i = 0; i < width; ++i) v[i] = float(v[i] / sum);
}

std::vector<float> binary_probabilities(float p) { return {1.f - p, p}; }

std::vector<float> class_probabilities(const float* output, std::int64_t width) {
    if (width == 1) return binary_probabilities(output[0]);
    std::vector<float> p(output, output + width);
    to_probabilities(p.data(), width);
    return p;
}

}  // namespace lf
