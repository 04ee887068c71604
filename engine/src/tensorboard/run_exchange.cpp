#include "layerforge/tensorboard/run_exchange.h"

#include <ctime>
#include <filesystem>
#include <map>

#include "layerforge/core/error.h"
#include "layerforge/tensorboard/metric_tags.h"
#include "layerforge/tensorboard/run_log_writer.h"

namespace lf::tensorboard {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSourcePrefix = "tensorboard:";

// "2024-05-01T12:00:00Z" (utc_now's form) of the run's first point: an imported run keeps its start.
std::string first_time(const std::vector<MetricRow>& rows) {
    double t = 0;
    for (const MetricRow& r : rows)
        if (r.wall_time > 0 && (t == 0 || r.wall_time < t)) t = r.wall_time;
    if (t <= 0) return "";
    const std::time_t s = std::time_t(t);
    std::tm tm{};
    char buf[32];
    if (!gmtime_r(&s, &tm) || !std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm)) return "";
    return buf;
}

bool holds_event_files(const fs::path& folder) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
        if (is_event_file_name(it->path().filename().string())) return true;
    return false;
}

}  // namespace

ExportedRun export_run(RunStore& store, std::int64_t run, const std::string& out_dir) {
    const RunInfo info = store.run(run);
    ExportedRun out;
    out.run = run;
    out.folder = (fs::path(out_dir) / run_folder_name(info.name, run)).string();
    if (holds_event_files(out.folder))
        throw input_error(out.folder + " already holds TensorBoard event files (TensorBoard would show both copies); "
                          "remove it or export to another folder");
    RunLogWriter log(out.folder);
    for (const MetricRow& r : store.metrics(run)) {
        log.add(r);
        ++out.points;
    }
    log.flush();
    out.files = log.files();
    return out;
}

ImportResult import_log_folder(RunStore& store, const std::string& folder) {
    LogFolder logs = read_log_folder(folder);
    ImportResult out;
    out.damage = std::move(logs.damage);
    std::map<std::string, std::int64_t> imported_before;  // source -> run
    for (const RunInfo& r : store.runs())
        if (r.source.rfind(kSourcePrefix, 0) == 0) imported_before[r.source] = r.id;
    for (const LogRun& log : logs.runs) {
        const std::string source = kSourcePrefix + log.path;
        if (auto it = imported_before.find(source); it != imported_before.end()) {
            out.skipped.push_back(log.path + ": already imported as run " + std::to_string(it->second));
            continue;
        }
        if (log.points() == 0) {
            out.skipped.push_back(log.path + ": no scalars in its event files");
            continue;
        }
        std::vector<MetricRow> rows = rows_from_log(log, 0);
        RunInfo info;
        info.name = log.name;
        info.source = source;
        info.created = first_time(rows);
        info.device = "tensorboard";
        const std::int64_t id = store.create_run(info);
        for (MetricRow& r : rows) r.run = id;
        store.append_metrics(rows);
        store.set_status(id, RunStatus::Finished);
        out.imported.push_back({id, log.name, log.path, rows.size()});
    }
    return out;
}

}  // namespace lf::tensorboard
