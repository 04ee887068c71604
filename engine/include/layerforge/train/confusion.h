#pragma once
// Classification results from model outputs: the confusion matrix (rows: true class, columns:
// predicted class), per-class precision / recall / F1, and outputs turned into probabilities.
// Pure functions with no state, for the evaluation view and the CLI.
#include <cstdint>
#include <vector>

namespace lf {

class ConfusionMatrix {
public:
    explicit ConfusionMatrix(std::int64_t classes = 0);

    std::int64_t classes() const { return classes_; }
    void add(std::int32_t truth, std::int32_t predicted, std::int64_t count = 1);  // ignores labels out of range
    std::int64_t at(std::int64_t truth, std::int64_t predicted) const {
        return counts_[std::size_t(truth * classes_ + predicted)];
    }
    std::int64_t row_total(std::int64_t truth) const;        // samples of that class
    std::int64_t column_total(std::int64_t predicted) const;  // samples predicted as that class
    std::int64_t total() const;
    std::int64_t correct() const;  // the diagonal
    double accuracy() const;       // 0 when empty
    // at(t, p) / row_total(t), 0 for an empty row: what the heat map colours by.
    double row_fraction(std::int64_t truth, std::int64_t predicted) const;

private:
    std::int64_t classes_;
    std::vector<std::int64_t> counts_;
};

struct ClassScores {
    double precision = 0, recall = 0, f1 = 0;  // 0 where undefined (nothing predicted / no samples)
    std::int64_t support = 0;                  // samples of the class
};

std::vector<ClassScores> class_scores(const ConfusionMatrix& m);
// Unweighted mean over the classes that have samples.
ClassScores macro_average(const std::vector<ClassScores>& scores);

// The predicted class of one output row: the arg max (first on ties); a single output unit is
// a binary classifier (> 0.5 means class 1).
std::int32_t predicted_class(const float* output, std::int64_t width);
// Adds n outputs (n x width) with their labels to the matrix.
void add_predictions(ConfusionMatrix& m, const float* outputs, const std::int32_t* labels, std::int64_t n,
                     std::int64_t width);

// In place: outputs that are not already probabilities (logits) go through a softmax; a single
// unit p becomes (1 - p, p) only in `binary_probabilities`.
void to_probabilities(float* v, std::int64_t width);
std::vector<float> binary_probabilities(float p);
// One output row as one probability per class: a single unit p gives (1 - p, p).
std::vector<float> class_probabilities(const float* output, std::int64_t width);

}  // namespace lf
