#include "charts/ema_smoothing.h"

#include <algorithm>
#include <cmath>

namespace lf::ui {

void EmaSmoother::setFactor(double factor) {
    factor_ = std::isfinite(factor) ? std::clamp(factor, 0.0, kMaxSmoothing) : 0.0;
}

void EmaSmoother::reset() {
    last_ = 0;
    debias_ = 1;
}

double EmaSmoother::push(double value) {
    if (!std::isfinite(value)) return value;
    last_ = last_ * factor_ + (1 - factor_) * value;
    debias_ *= factor_;
    if (debias_ < 1e-20) debias_ = 0;  // 1 - debias is exactly 1 by now; spare the denormals
    // factor 0 gives debias 0 and 1 - 0 = 1: the identity, with no special case.
    return last_ / (1 - debias_);
}

std::vector<double> smoothed(const std::vector<double>& values, double factor) {
    EmaSmoother s(factor);
    std::vector<double> out;
    out.reserve(values.size());
    for (double v : values) out.push_back(s.push(v));
    return out;
}

}  // namespace lf::ui
