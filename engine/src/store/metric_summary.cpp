#include "store/metric_summary.h"

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <tuple>

namespace lf::store_detail {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// min/max over finite values only; NaN stands for "none yet", as NULL does in the tables.
void widen(double& lo, double& hi, double v) {
    if (!std::isfinite(v)) return;
    if (std::isnan(lo) || v < lo) lo = v;
    if (std::isnan(hi) || v > hi) hi = v;
}

struct SummaryDelta {
    std::int64_t last_step = 0, last_epoch = 0, count = 0;
    double last = kNaN, min = kNaN, max = kNaN;
};

struct LevelDelta {
    std::int64_t min_step = 0, max_step = 0, count = 0;
    double min = kNaN, max = kNaN;
};

using MetricKey = std::tuple<std::int64_t, std::string, std::string>;  // run, split, name
using LevelKey = std::tuple<std::int64_t, std::string, std::string, std::int64_t>;

void bind_value(Stmt& s, int i, double v) {
    if (std::isfinite(v)) s.bind(i, v);
    else s.bind_null(i);
}

double value_at(const Stmt& s, int col) { return s.is_null(col) ? kNaN : s.real(col); }

// SQLite's min()/max() with several arguments return NULL when any is NULL: coalesce keeps the other.
const char* const kUpsertSummary =
    "INSERT INTO metric_summary(run, split, name, last_step, last_epoch, last_value, min_value, max_value, count) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT(run, split, name) DO UPDATE SET "
    "last_value = CASE WHEN excluded.last_step >= last_step THEN excluded.last_value ELSE last_value END, "
    "last_step = max(last_step, excluded.last_step), last_epoch = max(last_epoch, excluded.last_epoch), "
    "min_value = coalesce(min(min_value, excluded.min_value), min_value, excluded.min_value), "
    "max_value = coalesce(max(max_value, excluded.max_value), max_value, excluded.max_value), "
    "count = count + excluded.count";

// Every SET expression reads the row as it was, so the steps compare against the old extremes.
const char* const kUpsertLevel =
    "INSERT INTO metric_levels(run, split, name, bucket, min_step, min_value, max_step, max_value, count) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT(run, split, name, bucket) DO UPDATE SET "
    "min_step = CASE WHEN min_value IS NULL OR excluded.min_value < min_value THEN excluded.min_step ELSE min_step END, "
    "max_step = CASE WHEN max_value IS NULL OR excluded.max_value > max_value THEN excluded.max_step ELSE max_step END, "
    "min_value = coalesce(min(min_value, excluded.min_value), min_value, excluded.min_value), "
    "max_value = coalesce(max(max_value, excluded.max_value), max_value, excluded.max_value), "
    "count = count + excluded.count";

}  // namespace

void add_to_summaries(Db& db, const std::vector<MetricRow>& rows) {
    std::map<MetricKey, SummaryDelta> summaries;
    std::map<LevelKey, LevelDelta> levels;
    for (const MetricRow& r : rows) {
        SummaryDelta& s = summaries[{r.run, r.split, r.name}];
        if (s.count == 0 || r.step >= s.last_step) {  // the later row of a step wins, as in metrics()
            s.last_step = r.step;
            s.last = r.value;
        }
        s.last_epoch = s.count == 0 ? r.epoch : std::max(s.last_epoch, r.epoch);
        ++s.count;
        widen(s.min, s.max, r.value);
        LevelDelta& l = levels[{r.run, r.split, r.name, r.step / kMetricLevelSteps}];
        if (std::isfinite(r.value) && (std::isnan(l.min) || r.value < l.min)) l.min_step = r.step;
        if (std::isfinite(r.value) && (std::isnan(l.max) || r.value > l.max)) l.max_step = r.step;
        widen(l.min, l.max, r.value);
        ++l.count;
    }
    Stmt s(db, kUpsertSummary);
    for (const auto& [key, d] : summaries) {
        s.bind(1, std::get<0>(key)).bind(2, std::get<1>(key)).bind(3, std::get<2>(key));
        s.bind(4, d.last_step).bind(5, d.last_epoch);
        bind_value(s, 6, d.last);
        bind_value(s, 7, d.min);
        bind_value(s, 8, d.max);
        s.bind(9, d.count).run();
    }
    Stmt l(db, kUpsertLevel);
    for (const auto& [key, d] : levels) {
        l.bind(1, std::get<0>(key)).bind(2, std::get<1>(key)).bind(3, std::get<2>(key)).bind(4, std::get<3>(key));
        l.bind(5, d.min_step);
        bind_value(l, 6, d.min);
        l.bind(7, d.max_step);
        bind_value(l, 8, d.max);
        l.bind(9, d.count).run();
    }
}

void rebuild_summaries(Db& db, std::optional<std::int64_t> run) {
    const std::string where = run ? " WHERE run = " + std::to_string(*run) : std::string();
    const std::string bucket = "step / " + std::to_string(kMetricLevelSteps);
    db.exec("DELETE FROM metric_summary" + where + ";DELETE FROM metric_levels" + where, "summarising the metrics");
    // The last value: the row with the largest step, the later written of equal steps.
    db.exec("INSERT INTO metric_summary(run, split, name, last_step, last_epoch, last_value, min_value, max_value, "
            "count) SELECT run, split, name, max(step), max(epoch), (SELECT l.value FROM metrics l WHERE l.run = "
            "m.run AND l.split = m.split AND l.name = m.name ORDER BY l.step DESC, l.rowid DESC LIMIT 1), "
            "min(value), max(value), count(*) FROM metrics m" +
                where + " GROUP BY run, split, name",
            "summarising the metrics");
    // With exactly one min() (or max()) aggregate, SQLite takes a bare column from the row holding it.
    db.exec("INSERT INTO metric_levels(run, split, name, bucket, min_value, min_step, count) SELECT run, split, "
            "name, " + bucket + ", min(value), step, count(*) FROM metrics" + where + " GROUP BY run, split, name, " +
                bucket,
            "summarising the metrics");
    db.exec("UPDATE metric_levels SET (max_value, max_step) = (SELECT max(value), step FROM metrics m WHERE m.run = "
            "metric_levels.run AND m.split = metric_levels.split AND m.name = metric_levels.name AND m.step >= "
            "metric_levels.bucket * " + std::to_string(kMetricLevelSteps) + " AND m.step < (metric_levels.bucket + 1) * " +
                std::to_string(kMetricLevelSteps) + ")" + where,
            "summarising the metrics");
}

std::vector<std::pair<std::int64_t, MetricSummary>> read_summaries(Db& db, std::optional<std::int64_t> run) {
    Stmt s(db, run ? "SELECT run, split, name, last_step, last_epoch, count, last_value, min_value, max_value FROM "
                     "metric_summary WHERE run = ?1 ORDER BY split, name"
                   : "SELECT run, split, name, last_step, last_epoch, count, last_value, min_value, max_value FROM "
                     "metric_summary ORDER BY run, split, name");
    if (run) s.bind(1, *run);
    std::vector<std::pair<std::int64_t, MetricSummary>> out;
    while (s.step())
        out.push_back({s.integer(0), MetricSummary{s.text(1), s.text(2), s.integer(3), s.integer(4), s.integer(5),
                                                   value_at(s, 6), value_at(s, 7), value_at(s, 8)}});
    return out;
}

std::vector<MetricLevel> read_levels(Db& db, std::int64_t run, const std::string& split, const std::string& name) {
    Stmt s(db, "SELECT bucket, coalesce(min_step, 0), coalesce(max_step, 0), count, min_value, max_value FROM "
               "metric_levels WHERE run = ?1 AND split = ?2 AND name = ?3 ORDER BY bucket");
    s.bind(1, run).bind(2, split).bind(3, name);
    std::vector<MetricLevel> out;
    while (s.step())
        out.push_back({s.integer(0), s.integer(1), s.integer(2), s.integer(3), value_at(s, 4), value_at(s, 5)});
    return out;
}

}  // namespace lf::store_detail
