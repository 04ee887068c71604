#pragma once
// Small helpers shared by the generated PyTorch and tf.keras scripts.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "layerforge/export/export.h"

namespace lf::exporter {

// A Python identifier from a layer name, unique among `taken` (which it joins).
std::string python_name(const std::string& name, std::set<std::string>& taken);
std::string python_tuple(const std::vector<std::int64_t>& v);  // "(3, 3)", "(5,)"
std::string python_float(double v);                            // round-trips a float64
// CLASSES, MEAN, STD and NORMALIZATION constants, and the INPUT_SHAPE of one NHWC sample.
std::string python_metadata(const ExportMetadata& meta, const std::vector<std::int64_t>& input_shape);

}  // namespace lf::exporter
