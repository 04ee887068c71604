#include "layerforge/store/run_store.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <map>
#include <set>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"
#include "store/metric_summary.h"
#include "store/run_owner.h"
#include "store/schema.h"
#include "store/sqlite.h"

namespace lf {

using store_detail::Db;
using store_detail::Stmt;
using store_detail::Transaction;

std::string crc32_hex(std::initializer_list<std::string_view> parts) {
    uLong crc = crc32(0L, Z_NULL, 0);
    for (std::string_view bytes : parts) {
        for (std::size_t done = 0; done < bytes.size();) {  // zlib takes 32-bit lengths
            const std::size_t n = std::min<std::size_t>(bytes.size() - done, 1u << 30);
            crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data() + done), uInt(n));
            done += n;
        }
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "crc32:%08lx", static_cast<unsigned long>(crc));
    return buf;
}

std::string crc32_hex(std::string_view bytes) { return crc32_hex({bytes}); }

std::string utc_now() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string RunStore::path_for_project(const std::string& project_path) {
    std::filesystem::path p(project_path);
    return (p.parent_path() / (p.stem().string() + ".lfruns")).string();
}

RunStore::RunStore(const std::string& path, bool create, int busy_timeout_ms) {
    std::error_code ec;
    if (!create && !std::filesystem::exists(path, ec))
        throw input_error(path + ": no run store yet; train the project first (layerforge-cli train)");
    // A store in a read-only folder (a read-only mount, a copied backup) still opens for reading.
    const bool read_only = !create && !folder_is_writable(std::filesystem::path(path).parent_path().string());
    db_ = std::make_unique<Db>(path, create, read_only, busy_timeout_ms);
    store_detail::migrate(*db_);
}

RunStore::~RunStore() = default;

Precision run_precision(const RunInfo& r) {
    const nlohmann::json settings = nlohmann::json::parse(r.settings, nullptr, false);
    const nlohmann::json* training = settings.is_object() && settings.contains("training") ? &settings["training"] : nullptr;
    if (!training || !training->is_object() || !training->contains("precision")) return Precision::Float32;
    const nlohmann::json& name = (*training)["precision"];
    const std::optional<Precision> p = name.is_string() ? parse_precision(name.get<std::string>()) : std::nullopt;
    if (!p)
        throw runtime_error("run " + std::to_string(r.id) + " was recorded with the unknown precision " + name.dump() +
                            "; the store is damaged or from a newer Layerforge");
    return *p;
}

const std::string& RunStore::path() const { return db_->path(); }

namespace {

// Sorted, unique, each checked: the tags a run can store.
std::vector<std::string> checked_tags(std::vector<std::string> tags) {
    for (const std::string& t : tags)
        if (t.empty() || t.size() > 100 || t.find_first_of(",\n\r") != std::string::npos)
            throw input_error("tag '" + t + "': a tag is 1 to 100 characters without commas or line breaks");
    std::sort(tags.begin(), tags.end());
    tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
    return tags;
}

void write_tags(Db& db, std::int64_t run, const std::vector<std::string>& tags) {
    Stmt(db, "DELETE FROM run_tags WHERE run = ?").bind(1, run).run();
    Stmt ins(db, "INSERT INTO run_tags(run, tag) VALUES(?, ?)");
    for (const std::string& t : tags) ins.bind(1, run).bind(2, t).run();
}

}  // namespace

std::int64_t RunStore::create_run(const RunInfo& r) {
    const std::vector<std::string> tags = checked_tags(r.tags);
    std::lock_guard lock(mutex_);
    Transaction t(*db_);
    Stmt s(*db_, "INSERT INTO runs(name, created, status, graph, settings, dataset_fingerprint, device, notes, owner, "
                 "starred, source) VALUES(?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?)");
    s.bind(1, r.name).bind(2, r.created.empty() ? utc_now() : r.created).bind(3, r.graph).bind(4, r.settings);
    s.bind(5, r.dataset_fingerprint).bind(6, r.device.empty() ? std::string("cpu") : r.device).bind(7, r.notes);
    s.bind(8, store_detail::this_process_owner()).bind(9, std::int64_t(r.starred)).bind(10, r.source).run();
    const std::int64_t id = sqlite3_last_insert_rowid(db_->handle());
    write_tags(*db_, id, tags);
    t.commit();
    return id;
}

void RunStore::set_status(std::int64_t run, RunStatus status) {
    std::lock_guard lock(mutex_);
    const bool running = status == RunStatus::Running;
    Stmt s(*db_, running ? "UPDATE runs SET status = ?, finished = NULL, owner = ? WHERE id = ?"
                         : "UPDATE runs SET status = ?, finished = ? WHERE id = ?");
    s.bind(1, std::string(to_string(status))).bind(2, running ? store_detail::this_process_owner() : utc_now()).bind(3, run).run();
}

namespace {

const char* const kRunColumns =
    "SELECT id, name, created, coalesce(finished, ''), status, graph, settings, dataset_fingerprint, device, notes, "
    "(SELECT coalesce(max(last_step), 0) FROM metric_summary WHERE run = runs.id), "
    "(SELECT coalesce(max(last_epoch), 0) FROM metric_summary WHERE run = runs.id), owner, starred, source, "
    "(SELECT group_concat(tag, ',') FROM (SELECT tag FROM run_tags WHERE run = runs.id ORDER BY tag)) FROM runs";

std::vector<std::string> split_tags(const std::string& joined) {
    std::vector<std::string> tags;
    for (std::size_t at = 0; at < joined.size();) {
        const std::size_t comma = std::min(joined.find(',', at), joined.size());
        tags.push_back(joined.substr(at, comma - at));
        at = comma + 1;
    }
    return tags;
}

RunInfo run_from(const Stmt& s, const std::string& path) {
    RunInfo r;
    r.id = s.integer(0);
    r.name = s.text(1);
    r.created = s.text(2);
    r.finished = s.text(3);
    const std::string status = s.text(4);
    const std::optional<RunStatus> known = parse_run_status(status);
    if (!known)
        throw runtime_error(path + ": run " + std::to_string(r.id) + " has the unknown status '" + status +
                            "'; the store is damaged");
    r.status = *known;
    r.graph = s.text(5);
    r.settings = s.text(6);
    r.dataset_fingerprint = s.text(7);
    r.device = s.text(8);
    r.notes = s.text(9);
    r.last_step = s.integer(10);
    r.last_epoch = s.integer(11);
    if (r.status == RunStatus::Running && store_detail::owner_state(s.text(12)) == store_detail::OwnerState::Gone)
        r.status = RunStatus::Interrupted;
    r.starred = s.integer(13) != 0;
    r.source = s.text(14);
    r.tags = split_tags(s.is_null(15) ? std::string() : s.text(15));
    return r;
}

const char* const kCheckpointColumns =
    "SELECT id, run, step, epoch, created, metrics, pinned, bytes, checksum FROM checkpoints";

CheckpointInfo checkpoint_from(const Stmt& s) {
    return {s.integer(0), s.integer(1), s.integer(2), s.integer(3), s.text(4), s.text(5), s.integer(6) != 0,
            s.integer(7), s.text(8)};
}

// The checkpoint's value of `metric`, or NaN when it has none.
double metric_of(const CheckpointInfo& c, const std::string& metric) {
    auto j = nlohmann::json::parse(c.metrics, nullptr, false);
    if (j.is_object() && j.contains(metric) && j[metric].is_number()) return j[metric].get<double>();
    return std::nan("");
}

// The best checkpoint by metric (ties: the newest); nullptr when none reports the metric.
const CheckpointInfo* best_of(const std::vector<CheckpointInfo>& all, const std::string& metric, bool maximize) {
    const CheckpointInfo* best = nullptr;
    double best_value = 0;
    for (const CheckpointInfo& c : all) {  // newest first
        double v = metric_of(c, metric);
        if (std::isnan(v)) continue;
        if (!best || (maximize ? v > best_value : v < best_value)) {
            best = &c;
            best_value = v;
        }
    }
    return best;
}

}  // namespace

bool higher_is_better(std::string_view metric) { return metric.find("acc") != std::string_view::npos; }

const MetricSummary* RunSummary::find(std::string_view split, std::string_view name) const {
    for (const MetricSummary& m : metrics)
        if (m.split == split && m.name == name) return &m;
    return nullptr;
}

namespace {

std::vector<std::pair<std::string, double>> epoch_level(const RunSummary& r, bool best) {
    std::map<std::string, double> out;
    for (const MetricSummary& m : r.metrics) {
        if (best && m.name == "lr") continue;  // a schedule, not a result
        const double v = best ? m.best() : m.last;
        if (m.split == "epoch") out[m.name] = v;
        else if (m.split == "val" || m.split == "test") out[m.split + "_" + m.name] = v;
    }
    return {out.begin(), out.end()};
}

}  // namespace

std::vector<std::pair<std::string, double>> RunSummary::final_metrics() const { return epoch_level(*this, false); }
std::vector<std::pair<std::string, double>> RunSummary::best_metrics() const { return epoch_level(*this, true); }

std::vector<RunInfo> RunStore::runs() {
    std::lock_guard lock(mutex_);
    Stmt s(*db_, (std::string(kRunColumns) + " ORDER BY id").c_str());
    std::vector<RunInfo> out;
    while (s.step()) out.push_back(run_from(s, db_->path()));
    return out;
}

RunInfo RunStore::run(std::int64_t id) {
    std::lock_guard lock(mutex_);
    Stmt s(*db_, (std::string(kRunColumns) + " WHERE id = ?").c_str());
    s.bind(1, id);
    if (!s.step()) throw input_error(db_->path() + ": no run " + std::to_string(id) + "; see `layerforge-cli runs list`");
    return run_from(s, db_->path());
}

std::vector<RunSummary> RunStore::run_summaries() {
    std::lock_guard lock(mutex_);
    Transaction t(*db_, /*read=*/true);  // runs, counts and summaries from one snapshot
    std::vector<RunSummary> out;
    Stmt s(*db_, (std::string(kRunColumns) + " ORDER BY id").c_str());
    while (s.step()) out.push_back({run_from(s, db_->path()), 0, {}});
    Stmt c(*db_, "SELECT run, count(*) FROM checkpoints GROUP BY run ORDER BY run");
    auto at = out.begin();
    while (c.step()) {
        at = std::lower_bound(at, out.end(), c.integer(0), [](const RunSummary& r, std::int64_t id) { return r.info.id < id; });
        if (at != out.end() && at->info.id == c.integer(0)) at->checkpoints = c.integer(1);
    }
    at = out.begin();
    for (auto& [run, m] : store_detail::read_summaries(*db_, std::nullopt)) {
        at = std::lower_bound(at, out.end(), run, [](const RunSummary& r, std::int64_t id) { return r.info.id < id; });
        if (at != out.end() && at->info.id == run) at->metrics.push_back(std::move(m));
    }
    t.commit();
    return out;
}

RunSummary RunStore::run_summary(std::int64_t id) {
    RunSummary r{run(id), std::int64_t(checkpoints(id).size()), {}};
    std::lock_guard lock(mutex_);
    for (auto& [run, m] : store_detail::read_summaries(*db_, id)) r.metrics.push_back(std::move(m));
    return r;
}

namespace {

// Runs `sql` (binding the run id as ?2 after `bind` filled ?1) and throws when no run has the id.
void update_run(Db& db, std::int64_t run, Stmt& s) {
    s.bind(2, run).run();
    if (sqlite3_changes(db.handle()) == 0)
        throw input_error(db.path() + ": no run " + std::to_string(run) + "; see `layerforge-cli runs list`");
}

}  // namespace

void RunStore::set_tags(std::int64_t run, const std::vector<std::string>& tags) {
    const std::vector<std::string> checked = checked_tags(tags);
    std::lock_guard lock(mutex_);
    Transaction t(*db_);
    Stmt s(*db_, "UPDATE runs SET id = id WHERE id = ?2");
    update_run(*db_, run, s);
    write_tags(*db_, run, checked);
    t.commit();
}

void RunStore::set_starred(std::int64_t run, bool starred) {
    std::lock_guard lock(mutex_);
    Stmt s(*db_, "UPDATE runs SET starred = ?1 WHERE id = ?2");
    s.bind(1, std::int64_t(starred));
    update_run(*db_, run, s);
}

void RunStore::set_notes(std::int64_t run, const std::string& notes) {
    std::lock_guard lock(mutex_);
    Stmt s(*db_, "UPDATE runs SET notes = ?1 WHERE id = ?2");
    s.bind(1, notes);
    update_run(*db_, run, s);
}

void RunStore::delete_run(std::int64_t run) {
    std::lock_guard lock(mutex_);
    Transaction t(*db_);
    Stmt q(*db_, "SELECT status, owner, name FROM runs WHERE id = ?");
    q.bind(1, run);
    if (!q.step()) throw input_error(db_->path() + ": no run " + std::to_string(run) + "; see `layerforge-cli runs list`");
    const std::string owner = q.text(1), what = "run " + std::to_string(run) + " (" + q.text(2) + ")";
    const bool running = q.text(0) == to_string(RunStatus::Running);
    q.reset();
    if (running && store_detail::owner_state(owner) == store_detail::OwnerState::Alive)
        throw input_error(what + " is training now; stop it before deleting it");
    if (running && store_detail::owner_state(owner) == store_detail::OwnerState::Unknown && !owner.empty())
        throw input_error(what + " is recorded as training on another machine (" + owner +
                          "); stop it there before deleting it");
    for (const char* table : {"run_tags", "checkpoints", "metric_levels", "metric_summary", "metrics"})
        Stmt(*db_, (std::string("DELETE FROM ") + table + " WHERE run = ?").c_str()).bind(1, run).run();
    // A sweep's trial keeps its settings and result, without the run.
    Stmt(*db_, "UPDATE sweep_trials SET run = NULL WHERE run = ?").bind(1, run).run();
    Stmt(*db_, "DELETE FROM runs WHERE id = ?").bind(1, run).run();
    t.commit();
    db_->compact();
}

void RunStore::append_metrics(const std::vector<MetricRow>& rows) {
    if (rows.empty()) return;
    std::lock_guard lock(mutex_);
    Transaction t(*db_);
    Stmt s(*db_, "INSERT INTO metrics(run, step, epoch, split, name, value, wall_time) VALUES(?, ?, ?, ?, ?, ?, ?)");
    for (const MetricRow& r : rows) {
        s.bind(1, r.run).bind(2, r.step).bind(3, r.epoch).bind(4, r.split).bind(5, r.name);
        if (std::isfinite(r.value)) s.bind(6, r.value);
        else s.bind_null(6);
        s.bind(7, r.wall_time).run();
    }
    store_detail::add_to_summaries(*db_, rows);
    t.commit();
}

std::vector<MetricRow> RunStore::metrics(std::int64_t run, const std::string& split) {
    std::lock_guard lock(mutex_);
    Stmt s(*db_, "SELECT run, step, epoch, split, name, value, wall_time FROM metrics "
                 "WHERE run = ?1 AND (?2 = '' OR split = ?2) ORDER BY step, rowid");
    s.bind(1, run).bind(2, split);
    std::vector<MetricRow> out;
    while (s.step())
        out.push_back({s.integer(0), s.integer(1), s.integer(2), s.text(3), s.text(4),
                       s.is_null(5) ? std::nan("") : s.real(5), s.real(6)});
    return out;
}

void RunStore::delete_metrics_after(std::int64_t run, std::int64_t step) {
    std::lock_guard lock(mutex_);
    Transaction t(*db_);
    Stmt(*db_, "DELETE FROM metrics WHERE run = ? AND step > ?").bind(1, run).bind(2, step).run();
    if (sqlite3_changes(db_->handle()) > 0) store_detail::rebuild_summaries(*db_, run);
    t.commit();
}

std::vector<MetricRow> RunStore::metrics_between(std::int64_t run, const std::string& split, const std::string& name,
                                                 std::int64_t first_step, std::int64_t last_step) {
    std::lock_guard lock(mutex_);
    Stmt s(*db_, "SELECT step, epoch, value, wall_time FROM metrics WHERE run = ?1 AND step BETWEEN ?2 AND ?3 "
                 "AND split = ?4 AND name = ?5 ORDER BY step, rowid");
    s.bind(1, run).bind(2, first_step).bind(3, last_step).bind(4, split).bind(5, name);
    std::vector<MetricRow> out;
    while (s.step())
        out.push_back({run, s.integer(0), s.integer(1), split, name, s.is_null(2) ? std::nan("") : s.real(2), s.real(3)});
    return out;
}

std::vector<MetricLevel> RunStore::metric_levels(std::int64_t run, const std::string& split, const std::string& name) {
    std::lock_guard lock(mutex_);
    return store_detail::read_levels(*db_, run, split, name);
}

std::int64_t RunStore::save_checkpoint(std::int64_t run, std::int64_t step, std::int64_t epoch,
                                       const std::string& metrics_json, const std::string& blob,
                                       const RetentionPolicy& policy) {
    const std::string checksum = crc32_hex(blob);
    std::lock_guard lock(mutex_);
    Transaction t(*db_);
    Stmt ins(*db_, "INSERT INTO checkpoints(run, step, epoch, created, metrics, bytes, checksum, blob) "
                   "VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
    ins.bind(1, run).bind(2, step).bind(3, epoch).bind(4, utc_now()).bind(5, metrics_json);
    ins.bind(6, std::int64_t(blob.size())).bind(7, checksum).bind_blob(8, blob).run();
    const std::int64_t id = sqlite3_last_insert_rowid(db_->handle());
    if (policy.max_to_keep > 0) {
        std::vector<CheckpointInfo> all;
        Stmt q(*db_, (std::string(kCheckpointColumns) + " WHERE run = ? ORDER BY id DESC").c_str());
        q.bind(1, run);
        while (q.step()) all.push_back(checkpoint_from(q));
        std::set<std::int64_t> keep;
        for (std::size_t i = 0; i < all.size(); ++i)
            if (std::int64_t(i) < policy.max_to_keep || all[i].pinned) keep.insert(all[i].id);
        if (!policy.best_metric.empty())
            if (const CheckpointInfo* b = best_of(all, policy.best_metric, policy.maximize)) keep.insert(b->id);
        Stmt del(*db_, "DELETE FROM checkpoints WHERE id = ?");
        for (const CheckpointInfo& c : all)
            if (!keep.count(c.id)) del.bind(1, c.id).run();
    }
    t.commit();
    db_->compact();  // checkpoints are the store's big writes: its disk use stays near its content's
    return id;
}

std::vector<CheckpointInfo> RunStore::checkpoints(std::optional<std::int64_t> run) {
    std::lock_guard lock(mutex_);
    Stmt s(*db_, (std::string(kCheckpointColumns) + " WHERE ?1 IS NULL OR run = ?1 ORDER BY id").c_str());
    if (run) s.bind(1, *run);
    std::vector<CheckpointInfo> out;
    while (s.step()) out.push_back(checkpoint_from(s));
    return out;
}

CheckpointInfo RunStore::resolve(const std::string& spec, std::optional<std::int64_t> run) {
    std::vector<CheckpointInfo> all = checkpoints(run);
    std::reverse(all.begin(), all.end());  // newest first
    const std::string where = run ? " of run " + std::to_string(*run) : std::string();
    if (all.empty())
        throw input_error(path() + ": no checkpoints" + where + "; train with checkpoints first");
    if (spec == "latest") return all.front();
    if (spec.rfind("best", 0) == 0) {
        std::string metric, mode;
        if (spec.size() > 4) {
            if (spec[4] != ':') throw input_error("checkpoint '" + spec + "': write best, best:METRIC or best:METRIC:min|max");
            metric = spec.substr(5);
            if (auto c = metric.find(':'); c != std::string::npos) {
                mode = metric.substr(c + 1);
                metric = metric.substr(0, c);
            }
        }
        if (metric.empty()) {
            bool has_val = false;
            for (const auto& c : all) has_val = has_val || !std::isnan(metric_of(c, "val_loss"));
            metric = has_val ? "val_loss" : "loss";
        }
        if (mode.empty()) mode = higher_is_better(metric) ? "max" : "min";
        if (mode != "min" && mode != "max") throw input_error("checkpoint '" + spec + "': the mode must be min or max");
        if (const CheckpointInfo* b = best_of(all, metric, mode == "max")) return *b;
        throw input_error("no checkpoint" + where + " reports " + metric);
    }
    std::string digits = spec.rfind("ckpt-", 0) == 0 ? spec.substr(5) : spec;
    const bool by_step = digits.size() != spec.size();
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        throw input_error("checkpoint '" + spec + "': give an id, ckpt-STEP, latest or best; see `layerforge-cli checkpoints list`");
    const std::int64_t n = std::stoll(digits);
    for (const CheckpointInfo& c : all)
        if (by_step ? c.step == n : c.id == n) return c;
    throw input_error("no checkpoint " + spec + where + "; see `layerforge-cli checkpoints list`");
}

std::string RunStore::checkpoint_blob(std::int64_t id) {
    std::string blob, checksum;
    {
        std::lock_guard lock(mutex_);
        Stmt s(*db_, "SELECT blob, checksum FROM checkpoints WHERE id = ?");
        s.bind(1, id);
        if (!s.step()) throw input_error(path() + ": no checkpoint " + std::to_string(id));
        blob = s.blob(0);
        checksum = s.text(1);
    }
    if (crc32_hex(blob) != checksum)
        throw runtime_error(path() + ": checkpoint " + std::to_string(id) + " is damaged (checksum " + crc32_hex(blob) +
                            ", recorded " + checksum + "); restore another checkpoint");
    return blob;
}

void RunStore::set_pinned(std::int64_t id, bool pinned) {
    std::lock_guard lock(mutex_);
    Stmt s(*db_, "UPDATE checkpoints SET pinned = ? WHERE id = ?");
    s.bind(1, std::int64_t(pinned)).bind(2, id).run();
    if (sqlite3_changes(db_->handle()) == 0) throw input_error(path() + ": no checkpoint " + std::to_string(id));
}

void RunStore::delete_checkpoint(std::int64_t id) {
    std::lock_guard lock(mutex_);
    Transaction t(*db_);
    Stmt q(*db_, "SELECT pinned FROM checkpoints WHERE id = ?");
    q.bind(1, id);
    if (!q.step()) throw input_error(path() + ": no checkpoint " + std::to_string(id));
    const bool pinned = q.integer(0) != 0;
    q.reset();
    if (pinned)
        throw input_error(path() + ": checkpoint " + std::to_string(id) + " is pinned; unpin it before deleting it");
    Stmt(*db_, "DELETE FROM checkpoints WHERE id = ?").bind(1, id).run();
    t.commit();
    db_->compact();
}

std::string RunStore::integrity_check() {
    std::lock_guard lock(mutex_);
    Stmt s(*db_, "PRAGMA integrity_check");
    std::string out;
    while (s.step()) {
        if (!out.empty()) out += '\n';
        out += s.text(0);
    }
    return out;
}

}  // namespace lf
