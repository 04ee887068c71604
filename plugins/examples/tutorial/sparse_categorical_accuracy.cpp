// The tutorial's re-implemented SparseCategoricalAccuracy: count / total, where count adds
// one for every sample whose argmax (the first maximum) equals its label.
#include <memory>

#include "layerforge/core/error.h"
#include "tutorial.h"

namespace tutorial {

namespace {

class SparseCategoricalAccuracy final : public lf::Metric {
public:
    std::string name() const override { return "SparseCategoricalAccuracy"; }
    void reset() override { total_ = count_ = 0; }

    void update(const float* output, const std::int32_t* labels, std::int64_t n, std::int64_t c) override {
        for (std::int64_t i = 0; i < n; ++i) {
            const float* row = output + i * c;
            std::int64_t best = 0;
            for (std::int64_t j = 1; j < c; ++j)
                if (row[j] > row[best]) best = j;
            count_ += best == labels[i];
        }
        total_ += n;
    }

    double result() const override { return total_ ? double(count_) / double(total_) : 0.0; }
    std::vector<double> state() const override { return {double(total_), double(count_)}; }
    void set_state(const std::vector<double>& s) override {
        if (s.size() != 2) throw lf::input_error("metric 'SparseCategoricalAccuracy': a saved state needs 2 values");
        total_ = std::int64_t(s[0]);
        count_ = std::int64_t(s[1]);
    }

private:
    std::int64_t total_ = 0, count_ = 0;
};

}  // namespace

lf::MetricSpec sparse_categorical_accuracy_spec() {
    return {.name = "SparseCategoricalAccuracy",
            .help = "The tutorial's custom metric: share of samples whose argmax equals the label.",
            .make = [] { return std::make_unique<SparseCategoricalAccuracy>(); }};
}

}  // namespace tutorial
