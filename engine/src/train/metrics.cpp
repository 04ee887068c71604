// Streaming accuracy metrics. Counts are kept as integers so the result is exact.
#include "layerforge/train/metrics.h"

#include <cctype>

#include "layerforge/core/error.h"
#include "layerforge/core/registry.h"

namespace lf {

namespace {

// Counts hits over all updates since reset; subclasses decide what a hit is for c > 1.
class CountingMetric : public Metric {
public:
    explicit CountingMetric(std::string name) : name_(std::move(name)) {}
    std::string name() const override { return name_; }
    void reset() override { correct_ = total_ = 0; }
    double result() const override { return total_ ? static_cast<double>(correct_) / total_ : 0.0; }
    std::vector<double> state() const override { return {double(correct_), double(total_)}; }
    void read_state(std::vector<double>& out) const override {
        out.resize(2);
        out[0] = double(correct_), out[1] = double(total_);
    }
    void set_state(const std::vector<double>& s) override {
        if (s.size() != 2) throw input_error("metric '" + name_ + "': a saved state needs 2 values");
        correct_ = std::int64_t(s[0]);
        total_ = std::int64_t(s[1]);
    }

    void update(const float* output, const std::int32_t* labels, std::int64_t n, std::int64_t c) override {
        for (std::int64_t i = 0; i < n; ++i) {
            const float* row = output + i * c;
            // c == 1 is a binary output: above 0.5 predicts class 1.
            const bool hit = c == 1 ? (row[0] > 0.5f ? 1 : 0) == labels[i] : correct(row, labels[i], c);
            correct_ += hit;
        }
        total_ += n;
    }

protected:
    virtual bool correct(const float* row, std::int32_t label, std::int64_t c) const = 0;

private:
    std::string name_;
    std::int64_t correct_ = 0, total_ = 0;
};

// Argmax equals the label; ties go to the first maximum (np.argmax / tf.argmax).
class Accuracy final : public CountingMetric {
public:
    using CountingMetric::CountingMetric;

protected:
    bool correct(const float* row, std::int32_t label, std::int64_t c) const override {
        std::int64_t best = 0;
        for (std::int64_t j = 1; j < c; ++j)
            if (row[j] > row[best]) best = j;
        return best == label;
    }
};

// tf.math.in_top_k: the label is in the top k when fewer than k classes score strictly
// higher, so ties straddling the boundary count as hits.
class TopKAccuracy final : public CountingMetric {
public:
    TopKAccuracy(std::string name, std::int64_t k) : CountingMetric(std::move(name)), k_(k) {}

protected:
    bool correct(const float* row, std::int32_t label, std::int64_t c) const override {
        if (label < 0 || label >= c) return false;
        std::int64_t higher = 0;
        for (std::int64_t j = 0; j < c; ++j) higher += row[j] > row[label];
        return higher < k_;
    }

private:
    std::int64_t k_;
};

// "top3_accuracy" -> 3; 0 when the name is not of that form.
std::int64_t parse_top_k(const std::string& name) {
    const std::string head = "top", tail = "_accuracy";
    if (name.size() <= head.size() + tail.size() || name.rfind(head, 0) != 0 ||
        name.compare(name.size() - tail.size(), tail.size(), tail) != 0)
        return 0;
    const std::string digits = name.substr(head.size(), name.size() - head.size() - tail.size());
    if (digits.size() > 9) return 0;
    for (char ch : digits)
        if (!std::isdigit(static_cast<unsigned char>(ch))) return 0;
    return std::stoll(digits);
}

Registry<MetricSpec, &MetricSpec::name>& added() {
    static Registry<MetricSpec, &MetricSpec::name> r;
    return r;
}

}  // namespace

std::vector<std::string> metric_names() {
    std::vector<std::string> names = {"accuracy", "sparse_categorical_accuracy", "top_k_accuracy"};
    for (const MetricSpec& s : added().all()) names.push_back(s.name);
    return names;
}

void add_metric(MetricSpec spec) {
    const std::string what = "metric '" + spec.name + "'";
    bool exists = true;
    try {
        make_metric(spec.name);  // also resolves patterns such as top3_accuracy
    } catch (const Error&) {
        exists = false;
    }
    if (exists) throw input_error(what + " is registered twice");
    added().add(std::move(spec), what);
}

const MetricSpec* find_added_metric(const std::string& name) { return added().find(name); }

void freeze_metrics() { added().freeze(); }
bool metrics_frozen() { return added().frozen(); }

std::unique_ptr<Metric> make_metric(const std::string& name) {
    // With integer labels Keras resolves "accuracy" to sparse_categorical_accuracy.
    if (name == "accuracy" || name == "sparse_categorical_accuracy") return std::make_unique<Accuracy>(name);
    if (name == "top_k_accuracy") return std::make_unique<TopKAccuracy>(name, 5);  // Keras default k
    if (std::int64_t k = parse_top_k(name); k > 0) return std::make_unique<TopKAccuracy>(name, k);
    if (const MetricSpec* plugin = find_added_metric(name)) return plugin->make();
    std::string valid;
    for (const auto& m : metric_names()) valid += m + ", ";
    throw input_error("unknown metric '" + name + "' (valid: " + valid + "top<K>_accuracy such as top3_accuracy)");
}

}  // namespace lf
