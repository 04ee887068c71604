#include "explorer/overlay_curves.h"

#include <cmath>

namespace lf::ui {

namespace {

CurvePoint at(double step, double value) { return {step, step, step, value}; }

void appendRows(std::vector<CurvePoint>& out, const std::vector<MetricRow>& rows) {
    for (const MetricRow& r : rows) out.push_back(at(double(r.step), r.value));
}

}  // namespace

std::vector<CurvePoint> levelPoints(const std::vector<MetricLevel>& levels) {
    std::vector<CurvePoint> out;
    out.reserve(levels.size() * 2);
    for (const MetricLevel& l : levels) {
        if (!std::isfinite(l.min)) continue;
        const bool minFirst = l.min_step <= l.max_step;
        out.push_back(minFirst ? at(double(l.min_step), l.min) : at(double(l.max_step), l.max));
        if (l.min_step != l.max_step) out.push_back(minFirst ? at(double(l.max_step), l.max) : at(double(l.min_step), l.min));
    }
    return out;
}

bool wantsRows(double lo, double hi) { return hi - lo <= double(kWindowLevels * kMetricLevelSteps); }

OverlayCurve loadOverlayCurve(RunStore& store, std::int64_t run, std::int64_t rows, const std::string& split,
                              const std::string& name, std::optional<StepWindow> window) {
    OverlayCurve c;
    c.run = run;
    if (rows <= kExactRows) {
        appendRows(c.points, store.metrics_between(run, split, name, 0, INT64_MAX));
        return c;
    }
    c.fromLevels = true;
    const std::vector<CurvePoint> levels = levelPoints(store.metric_levels(run, split, name));
    if (!window) {
        c.points = levels;
        return c;
    }
    // Whole levels on either side, so the window's rows join them without a gap or an overlap.
    const double first = double(window->first / kMetricLevelSteps * kMetricLevelSteps);
    const double last = double((window->last / kMetricLevelSteps + 1) * kMetricLevelSteps);
    for (const CurvePoint& p : levels)
        if (p.step < first) c.points.push_back(p);
    appendRows(c.points, store.metrics_between(run, split, name, std::int64_t(first), std::int64_t(last) - 1));
    for (const CurvePoint& p : levels)
        if (p.step >= last) c.points.push_back(p);
    return c;
}

}  // namespace lf::ui
