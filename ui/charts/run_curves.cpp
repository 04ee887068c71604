#include "charts/run_curves.h"

#include <algorithm>
#include <map>

#include "layerforge/store/run_store.h"

namespace lf::ui {

namespace {

// For each integer epoch, the last step it covers: from the epoch-end rows where the epoch
// finished, else from its last training row (an epoch still running or interrupted).
std::map<std::int64_t, double> epochEnds(const std::vector<MetricRow>& rows) {
    std::map<std::int64_t, double> finished, seen;
    for (const MetricRow& r : rows) {
        auto& ends = r.split == "train" ? seen : finished;
        ends[r.epoch] = std::max(ends[r.epoch], double(r.step));
    }
    for (auto [epoch, step] : finished) seen[epoch] = step;
    return seen;
}

double fractionalEpoch(const std::map<std::int64_t, double>& ends, std::int64_t epoch, double step) {
    const auto it = ends.find(epoch - 1);
    const double start = it != ends.end() ? it->second : 0.0;
    const auto end = ends.find(epoch);
    const double length = end != ends.end() ? end->second - start : 0.0;
    if (length <= 0) return double(epoch);
    return double(epoch - 1) + (step - start) / length;
}

}  // namespace

NamedPoints curvesFromRows(const std::vector<MetricRow>& rows) {
    NamedPoints out;
    if (rows.empty()) return out;
    const std::map<std::int64_t, double> ends = epochEnds(rows);
    double t0 = rows.front().wall_time;
    for (const MetricRow& r : rows) t0 = std::min(t0, r.wall_time);
    std::map<std::string, std::size_t> index;
    for (const MetricRow& r : rows) {
        if (r.split != "train" && r.split != "val") continue;
        const std::string name = r.split == "val" ? "val_" + r.name : r.name;
        auto [it, added] = index.try_emplace(name, out.size());
        if (added) out.emplace_back(name, std::vector<CurvePoint>{});
        const double epoch = r.split == "val" ? double(r.epoch) : fractionalEpoch(ends, r.epoch, double(r.step));
        out[it->second].second.push_back({double(r.step), epoch, r.wall_time - t0, r.value});
    }
    return out;
}

NamedPoints loadRunCurves(RunStore& store, std::int64_t run) {
    store.run(run);  // throws for an unknown id, naming the store
    return curvesFromRows(store.metrics(run));
}

}  // namespace lf::ui
