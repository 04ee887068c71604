#pragma once
// The metadata every format carries, as string entries with the keys training writes into a
// weights file ("classes", "mean", "std": JSON), plus "normalization" (the formula in words),
// "input_layout" and "source".
#include <map>
#include <string>

#include "layerforge/export/export.h"

namespace lf::exporter {

std::map<std::string, std::string> metadata_entries(const ExportMetadata& meta, InputLayout layout);

// "[0.5, 0.25]" as Python / JSON literals; floats printed so they read back exactly.
std::string float_list(const std::vector<float>& v);
std::string string_list(const std::vector<std::string>& v);  // JSON strings are Python literals too

}  // namespace lf::exporter
