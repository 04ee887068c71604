#pragma once
// An earlier run's curves read back from the run store, Qt-free, in the shape the live charts
// use: "loss", "accuracy", ... per step from the "train" split and "val_loss", ... per epoch
// from the "val" split ("epoch" rows repeat the last running mean and are left out).
// Store rows carry an integer epoch; a step's fractional epoch is placed between the ends of
// its epoch (the step of the epoch's "val"/"epoch" rows), as the live run reports it: epoch N
// ends at x = N. Seconds count from the run's first row.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "charts/curve_series.h"

namespace lf {
struct MetricRow;
class RunStore;
}  // namespace lf

namespace lf::ui {

using NamedPoints = std::vector<std::pair<std::string, std::vector<CurvePoint>>>;  // in first-seen order

NamedPoints curvesFromRows(const std::vector<MetricRow>& rows);
// Throws lf::Error naming the store for an unknown run.
NamedPoints loadRunCurves(RunStore& store, std::int64_t run);

}  // namespace lf::ui
