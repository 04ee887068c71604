#pragma once
// Exponential smoothing of a metric curve, Qt-free. The variant is TensorBoard's debiased EMA
// (tensorboard/webapp/widgets/line_chart_v2/lib/data_transformer.ts, and the older
// vz_line_chart): last = last * f + (1 - f) * v, shown as last / (1 - f^n) where n counts the
// finite values seen. The debiasing keeps the first points from being pulled towards zero, so
// a constant series stays constant for every factor. Non-finite values pass through unsmoothed
// and do not disturb the average. It is causal: appending a point never changes earlier ones,
// which is what lets the live curve smooth incrementally in O(1) per point.
#include <cstddef>
#include <vector>

namespace lf::ui {

class EmaSmoother {
public:
    // factor 0 = identity; clamped to [0, 0.999].
    explicit EmaSmoother(double factor = 0) { setFactor(factor); }

    void setFactor(double factor);
    double factor() const { return factor_; }
    void reset();
    double push(double value);  // the smoothed value of `value` given everything pushed before

private:
    double factor_ = 0;
    double last_ = 0;
    double debias_ = 1;  // factor^n, n = finite values pushed so far
};

// The whole series smoothed at once (what a change of the smoothing slider recomputes).
std::vector<double> smoothed(const std::vector<double>& values, double factor);

inline constexpr double kMaxSmoothing = 0.999;

}  // namespace lf::ui
