#include "charts/curve_series.h"

#include <algorithm>

namespace lf::ui {

void CurveSeries::append(const CurvePoint& p) {
    if (!empty() && p.step < x_[0].back()) truncateFromStep(p.step);
    x_[0].push_back(p.step);
    x_[1].push_back(p.epoch);
    x_[2].push_back(p.seconds);
    raw_.append(p.value);
    if (smoothed()) smooth_.append(smoother_.push(p.value));
}

void CurveSeries::clear() {
    for (auto& x : x_) x.clear();
    raw_.clear();
    smoother_.reset();
    smooth_.clear();
}

void CurveSeries::setSmoothing(double factor) {
    smoother_.setFactor(factor);
    smoother_.reset();
    std::vector<double> values;
    if (smoothed()) {  // through smoother_ itself: later appends continue from its state
        values.reserve(size());
        for (double v : raw()) values.push_back(smoother_.push(v));
    }
    smooth_.assign(std::move(values));
}

void CurveSeries::truncateFromStep(double step) {
    const auto keep = std::size_t(std::lower_bound(x_[0].begin(), x_[0].end(), step) - x_[0].begin());
    for (auto& x : x_) x.resize(keep);
    raw_.assign(std::vector<double>(raw().begin(), raw().begin() + long(keep)));
    setSmoothing(smoother_.factor());  // rebuilds the smoother's state and the smoothed pyramid
}

CurvePoint CurveSeries::point(std::size_t i) const { return {x_[0][i], x_[1][i], x_[2][i], raw()[i]}; }

std::pair<std::size_t, std::size_t> CurveSeries::visibleRange(XAxisMode mode, double lo, double hi) const {
    const std::vector<double>& x = this->x(mode);
    auto first = std::size_t(std::lower_bound(x.begin(), x.end(), lo) - x.begin());
    auto last = std::size_t(std::upper_bound(x.begin(), x.end(), hi) - x.begin());
    if (first > 0) --first;
    if (last < x.size()) ++last;
    return {first, std::max(first, last)};
}

std::size_t CurveSeries::nearest(XAxisMode mode, double xv) const {
    const std::vector<double>& x = this->x(mode);
    if (x.empty()) return 0;
    const auto i = std::size_t(std::lower_bound(x.begin(), x.end(), xv) - x.begin());
    if (i == 0) return 0;
    if (i == x.size()) return i - 1;
    return xv - x[i - 1] <= x[i] - xv ? i - 1 : i;
}

std::vector<std::size_t> CurveSeries::decimated(std::size_t first, std::size_t last, std::size_t columns,
                                                bool byRaw) const {
    return (byRaw || !smoothed() ? raw_ : smooth_).select(first, last, columns);
}

}  // namespace lf::ui
