#pragma once
// Streaming metrics (Keras update_state / result / reset_state). No allocation in update().
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace lf {

class Metric {
public:
    virtual ~Metric() = default;
    virtual std::string name() const = 0;
    virtual void reset() = 0;
    // output: n x c model outputs (probabilities or logits: only the ranking matters,
    // except c == 1 where output > 0.5 means class 1); labels: n class ids.
    virtual void update(const float* output, const std::int32_t* labels, std::int64_t n, std::int64_t c) = 0;
    virtual double result() const = 0;
    // The accumulated state as numbers, so a resumed run continues an epoch's running value.
    virtual std::vector<double> state() const = 0;
    virtual void set_state(const std::vector<double>& s) = 0;  // throws lf::Error on a bad size
    // state() into `out`, allocating nothing once `out` has the size. A data-parallel run adds
    // the ranks' states every step, so a state must be sums (counts, totals), as Keras' are.
    virtual void read_state(std::vector<double>& out) const { out = state(); }
};

// Names: "accuracy", "sparse_categorical_accuracy", "top_k_accuracy" (k = 5), "top3_accuracy" (any k).
std::unique_ptr<Metric> make_metric(const std::string& name);
std::vector<std::string> metric_names();  // the built-ins, then the added ones

// A metric added at start-up (by a plugin, through PluginRegistrar): make_metric and
// metric_names know it from then on. Train owns this table; plugins only add to it.
struct MetricSpec {
    std::string name;  // as a project's training.metrics names it
    std::string help;
    std::function<std::unique_ptr<Metric>()> make;
};
// Throws lf::Error for a name make_metric resolves already, and after freeze_metrics().
void add_metric(MetricSpec spec);
const MetricSpec* find_added_metric(const std::string& name);  // null for built-ins and unknown names
void freeze_metrics();
bool metrics_frozen();

}  // namespace lf
