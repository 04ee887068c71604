#pragma once
// The charts' raw points as CSV, Qt-free: one row per point, never decimated or smoothed.
//   run,series,step,epoch,seconds,value
// `run` is "live" for the run being trained and the run id for an overlay; a missing value
// (NaN in the store) is an empty field.
#include <ostream>
#include <string>
#include <vector>

namespace lf::ui {

class CurveSeries;

struct CsvCurve {
    std::string run, series;
    const CurveSeries* curve = nullptr;
};

void writeCurvesCsv(std::ostream& out, const std::vector<CsvCurve>& curves);

}  // namespace lf::ui
