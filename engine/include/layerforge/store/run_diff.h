#pragma once
// What differs between two runs' snapshots (the graph and the training and data settings they
// were started with), as flattened JSON paths: "/settings/training/batch_size: 50 -> 64".
// Canvas positions are layout, not settings, and are left out.
#include <map>
#include <string>
#include <vector>

#include "layerforge/store/run_store.h"

namespace lf {

struct SettingDifference {
    std::string key;   // JSON pointer under "/model" or "/settings"
    std::string a, b;  // compact JSON of each side's value; empty where that run has none
};

std::vector<SettingDifference> settings_diff(const RunInfo& a, const RunInfo& b);

// A run's snapshot as flattened JSON paths ("/settings/training/batch_size") to compact JSON values.
using FlatSettings = std::map<std::string, std::string>;
FlatSettings flat_settings(const RunInfo& r);
// The keys whose value is not the same in all the runs (a run without the key counts as differing).
std::vector<std::string> differing_settings(const std::vector<FlatSettings>& runs);

}  // namespace lf
