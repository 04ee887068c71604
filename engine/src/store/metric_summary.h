#pragma once
// The derived tables metric_summary (per run, split and metric: last step, epoch and value, min,
// max, count) and metric_levels (the same min/max per kMetricLevelSteps steps). They are kept in
// step with the metric rows inside the transaction that writes the rows, so listings and
// zoomed-out charts read a few rows per run instead of every metric row.
#include <cstdint>
#include <optional>
#include <vector>

#include "layerforge/store/run_store.h"
#include "store/sqlite.h"

namespace lf::store_detail {

// Folds rows that are being appended into the summaries and levels (call inside the transaction
// that inserts them). A batch is aggregated first: one upsert per metric and per bucket.
void add_to_summaries(Db& db, const std::vector<MetricRow>& rows);

// Recomputes the summaries and levels from the metric rows: of one run (after rows were deleted),
// or of every run (the migration that introduced them).
void rebuild_summaries(Db& db, std::optional<std::int64_t> run);

// The summaries of one run, or of every run (keyed by run in the result), sorted by split, name.
std::vector<std::pair<std::int64_t, MetricSummary>> read_summaries(Db& db, std::optional<std::int64_t> run);

std::vector<MetricLevel> read_levels(Db& db, std::int64_t run, const std::string& split, const std::string& name);

}  // namespace lf::store_detail
