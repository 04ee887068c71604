#pragma once
// One metric curve as the charts keep it, Qt-free: every raw point with its three possible x
// positions (optimizer step, epoch, seconds since the run started), and min/max pyramids for
// decimation over the raw values and, while smoothing is on, over the smoothed values.
// Appending is amortised O(1); changing the smoothing factor recomputes the series (O(n)).
// x values are expected to be non-decreasing (a run's steps); a point whose step goes back
// (a resumed run continuing from its checkpoint) first drops the points from that step on.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "charts/ema_smoothing.h"
#include "charts/minmax_pyramid.h"

namespace lf::ui {

enum class XAxisMode { Step = 0, Epoch = 1, Seconds = 2 };

struct CurvePoint {
    double step = 0, epoch = 0, seconds = 0, value = 0;
};

class CurveSeries {
public:
    explicit CurveSeries(double smoothing = 0) : smoother_(smoothing) {}

    void append(const CurvePoint& p);
    void clear();
    void setSmoothing(double factor);
    double smoothing() const { return smoother_.factor(); }

    std::size_t size() const { return raw_.size(); }
    bool empty() const { return raw_.size() == 0; }
    CurvePoint point(std::size_t i) const;
    const std::vector<double>& x(XAxisMode mode) const { return x_[std::size_t(mode)]; }
    const std::vector<double>& raw() const { return raw_.values(); }
    const std::vector<double>& drawn() const { return smoothed() ? smooth_.values() : raw_.values(); }
    bool smoothed() const { return smoother_.factor() > 0; }

    // Indices [first, last) of the points with lo <= x <= hi, widened by one on each side so
    // lines reach the edges of the visible range.
    std::pair<std::size_t, std::size_t> visibleRange(XAxisMode mode, double lo, double hi) const;
    // Point nearest to x (by x); size() when empty.
    std::size_t nearest(XAxisMode mode, double x) const;
    // What to draw for [first, last) on a plot `columns` pixels wide (see MinMaxPyramid::select),
    // chosen by the drawn (smoothed) values, or by the raw ones for the faint raw curve.
    std::vector<std::size_t> decimated(std::size_t first, std::size_t last, std::size_t columns,
                                       bool byRaw = false) const;

private:
    void truncateFromStep(double step);

    std::array<std::vector<double>, 3> x_;
    EmaSmoother smoother_;
    MinMaxPyramid raw_;
    MinMaxPyramid smooth_;  // empty while smoothing is off
};

}  // namespace lf::ui
