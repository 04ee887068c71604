#pragma once
// The network report's warnings: designs that build but will train badly, slowly or not fit.
#include "layerforge/graph/network_report.h"

namespace lf::report_detail {

// Appends to r.warnings; r.layers already holds every layer's cost.
void add_warnings(const Graph& g, const Analysis& a, const ReportOptions& options, NetworkReport& r);

}  // namespace lf::report_detail
