#pragma once
// What the explorer's overlay reads for one run's metric, Qt-free: a short curve whole; a long
// one zoomed out from the store's pre-aggregated levels (each level's min and max at the steps
// they fell on, so the drawn envelope keeps every spike), and zoomed in as the rows of the
// visible window with the levels either side.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "charts/curve_series.h"
#include "layerforge/store/run_store.h"

namespace lf::ui {

inline constexpr std::int64_t kExactRows = 20000;  // a curve this short is always read whole
inline constexpr std::int64_t kWindowLevels = 30;  // zoomed in to this many levels or fewer: rows

struct StepWindow {
    std::int64_t first = 0, last = 0;  // steps, inclusive
};

struct OverlayCurve {
    std::int64_t run = 0;
    std::vector<CurvePoint> points;  // x: the step (also as epoch and seconds: the overlay plots steps)
    bool fromLevels = false;         // some points are levels rather than rows
};

// The levels as points in step order: each level's min and max, in the order they occurred.
std::vector<CurvePoint> levelPoints(const std::vector<MetricLevel>& levels);

// `rows`: how many rows the metric has (its MetricSummary::count); without a window, or for a
// short curve, the overview.
OverlayCurve loadOverlayCurve(RunStore& store, std::int64_t run, std::int64_t rows, const std::string& split,
                              const std::string& name, std::optional<StepWindow> window = std::nullopt);

// Whether a plot showing [lo, hi] steps should read rows rather than levels.
bool wantsRows(double lo, double hi);

}  // namespace lf::ui
