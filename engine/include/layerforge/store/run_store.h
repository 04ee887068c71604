#pragma once
// A project's run store, NAME.lfruns beside NAME.lfproj: one SQLite database (WAL mode) with
// every training run, its per-step and per-epoch metrics and its checkpoints.
//
// Threads: one RunStore is one connection, safe to share between threads (calls serialise on
// a mutex). Readers (the UI) open their own RunStore on the same file and never block the
// writer. Every write is a transaction: a process killed at any instant leaves the committed
// data intact.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "layerforge/core/precision.h"
#include "layerforge/core/run_status.h"

namespace lf {

namespace store_detail {
class Db;
}

inline constexpr int kRunStoreVersion = 6;  // PRAGMA user_version of a current store

struct RunInfo {
    std::int64_t id = 0;
    std::string name, created, finished;
    // Interrupted is never stored: it reads so when the stored status is Running but the process
    // training it on this machine has ended (killed, or its disk full).
    RunStatus status = RunStatus::Running;
    std::string graph, settings;                   // JSON snapshots of what the run trained
    std::string dataset_fingerprint, device, notes;
    std::int64_t last_step = 0, last_epoch = 0;    // from its metrics
    std::vector<std::string> tags;  // sorted, unique; a sweep's trials carry "sweep:NAME"
    bool starred = false;
    std::string source;  // '' for a run trained here; an imported run's origin ("tensorboard:DIR")
    bool imported() const { return !source.empty(); }
};

struct MetricRow {
    std::int64_t run = 0, step = 0, epoch = 0;
    std::string split;  // "train" (running, per step), "epoch" (epoch means, lr), "val"
    std::string name;   // "loss", "accuracy", "lr", ...
    double value = 0;
    double wall_time = 0;  // seconds since the Unix epoch
};

// Whether the best value of a metric is its largest (accuracies) rather than its smallest
// (losses, errors): the rule Keras' mode "auto" applies.
bool higher_is_better(std::string_view metric);

// One metric of one run over all its rows, kept up to date as rows are appended, so a listing
// never reads metric rows.
struct MetricSummary {
    std::string split, name;
    std::int64_t last_step = 0, last_epoch = 0, count = 0;  // the largest step and epoch; rows
    double last = 0;          // the value of the last row (largest step; NaN when not finite)
    double min = 0, max = 0;  // over the finite values; NaN when there are none
    double best() const { return higher_is_better(name) ? max : min; }
};

// The smallest and largest value of one metric over kMetricLevelSteps consecutive steps, and the
// steps they fell on: what a zoomed-out chart draws instead of every row.
inline constexpr std::int64_t kMetricLevelSteps = 1000;
struct MetricLevel {
    std::int64_t bucket = 0;  // steps [bucket * kMetricLevelSteps, (bucket + 1) * kMetricLevelSteps)
    std::int64_t min_step = 0, max_step = 0, count = 0;
    double min = 0, max = 0;  // NaN when the bucket has no finite value
};

struct RunSummary {
    RunInfo info;
    std::int64_t checkpoints = 0;
    std::vector<MetricSummary> metrics;  // sorted by split, then name
    const MetricSummary* find(std::string_view split, std::string_view name) const;  // nullptr if none
    // The epoch-level metrics under their Keras names ("loss", "val_loss", "test_accuracy", "lr"
    // from the "epoch", "val" and "test" splits), sorted by name: each one's last value, or its best.
    std::vector<std::pair<std::string, double>> final_metrics() const;
    std::vector<std::pair<std::string, double>> best_metrics() const;
};

struct CheckpointInfo {
    std::int64_t id = 0, run = 0, step = 0, epoch = 0;
    std::string created;
    std::string metrics;  // JSON object, e.g. {"loss": 0.41, "val_loss": 0.45}
    bool pinned = false;
    std::int64_t bytes = 0;
    std::string checksum;  // "crc32:xxxxxxxx" of the blob
    std::string name() const { return "ckpt-" + std::to_string(step); }
};

// CheckpointManager(max_to_keep) plus the best by a metric; pinned checkpoints always stay.
struct RetentionPolicy {
    std::int64_t max_to_keep = 5;  // newest N of the run; 0 keeps all
    std::string best_metric;       // e.g. "val_loss"; empty: no best kept beyond the newest
    bool maximize = false;         // mode "max"
};

// A trial of a sweep (sweep/sweep_runner.h): its settings and, once trained, its run.
struct SweepTrial {
    std::int64_t index = 0;    // 0-based, in the order the sweep expanded them
    std::string settings;      // JSON object: {"learning_rate": 0.001, "batch_size": 32}
    std::int64_t run = 0;      // 0 before it starts (or after its run was deleted)
    // pending, running, finished, pruned (stopped early by the median rule), stopped (by a stop
    // request: owed, resumed from its checkpoint by the sweep's --resume), failed
    std::string status = "pending";
    double objective = 0;      // its best objective value; NaN when it has none
    std::string curve = "[]";  // JSON array: the objective after each epoch
};

struct SweepInfo {
    std::int64_t id = 0;
    std::string name, created;
    std::string spec;  // JSON: how the trials were made and what ranks them
    std::vector<SweepTrial> trials;
};

class RunStore {
public:
    // Opens or creates the store and migrates an older schema. Throws lf::Error naming the file:
    // a newer schema, a damaged file, a read-only or missing folder, a lock held too long.
    // A write waits up to busy_timeout_ms for another process's lock before it fails.
    explicit RunStore(const std::string& path, bool create = true, int busy_timeout_ms = 10000);
    ~RunStore();

    static std::string path_for_project(const std::string& project_path);  // NAME.lfruns
    const std::string& path() const;

    // Stores name, graph, settings, fingerprint, device, notes, tags, starred, source and created
    // (now when empty: an imported run keeps its own start).
    std::int64_t create_run(const RunInfo& r);
    // Also stamps `finished`, or for `running` (a resumed run) makes this process its owner.
    void set_status(std::int64_t run, RunStatus status);
    std::vector<RunInfo> runs();
    RunInfo run(std::int64_t id);  // throws lf::Error (Input) for an unknown id
    // Every run with its checkpoint count and metric summaries, in id order, read in one
    // snapshot from the summary table (never from the metric rows): fast for thousands of runs.
    std::vector<RunSummary> run_summaries();
    RunSummary run_summary(std::int64_t id);  // throws lf::Error (Input) for an unknown id
    // Replaces the run's tags. A tag is non-empty text without line breaks or commas, at most
    // 100 characters; throws lf::Error (Input) naming the tag otherwise, or for an unknown run.
    void set_tags(std::int64_t run, const std::vector<std::string>& tags);
    void set_starred(std::int64_t run, bool starred);
    void set_notes(std::int64_t run, const std::string& notes);
    // Removes the run with its metrics, checkpoints and tags in one transaction. Throws
    // lf::Error (Input) for an unknown run, or one that a live process is training now.
    void delete_run(std::int64_t run);

    // One transaction, which also brings the runs' summaries and levels up to date.
    void append_metrics(const std::vector<MetricRow>& rows);
    std::vector<MetricRow> metrics(std::int64_t run, const std::string& split = "");
    // One metric's rows with first_step <= step <= last_step, in step order (a zoomed-in chart).
    std::vector<MetricRow> metrics_between(std::int64_t run, const std::string& split, const std::string& name,
                                           std::int64_t first_step, std::int64_t last_step);
    // One metric's pre-aggregated levels in bucket order (a zoomed-out chart).
    std::vector<MetricLevel> metric_levels(std::int64_t run, const std::string& split, const std::string& name);
    // A resumed run drops what an interrupted one logged past its checkpoint.
    void delete_metrics_after(std::int64_t run, std::int64_t step);

    // Inserts the checkpoint and applies the retention policy in the same transaction.
    // Returns the new checkpoint's id.
    std::int64_t save_checkpoint(std::int64_t run, std::int64_t step, std::int64_t epoch, const std::string& metrics_json,
                                 const std::string& blob, const RetentionPolicy& policy);
    std::vector<CheckpointInfo> checkpoints(std::optional<std::int64_t> run = std::nullopt);
    // "latest", "best[:METRIC[:min|max]]", an id, or "ckpt-STEP" (in `run`, or the newest run
    // having it). Throws lf::Error (Input) saying what exists when nothing matches.
    CheckpointInfo resolve(const std::string& spec, std::optional<std::int64_t> run = std::nullopt);
    // The blob, checked against its checksum; throws lf::Error (Runtime) when damaged.
    std::string checkpoint_blob(std::int64_t id);
    void set_pinned(std::int64_t id, bool pinned);
    // Removes one checkpoint. Throws lf::Error (Input) for an unknown id or a pinned checkpoint
    // (unpin it first): pinned ones are never removed.
    void delete_checkpoint(std::int64_t id);

    // A new sweep with its trials, all pending. Throws lf::Error (Input) when the name is taken.
    std::int64_t create_sweep(const std::string& name, const std::string& spec, const std::vector<std::string>& trial_settings);
    std::optional<SweepInfo> sweep(const std::string& name);
    std::vector<SweepInfo> sweeps();
    // Writes the trial's run, status, objective and curve.
    void update_trial(std::int64_t sweep, const SweepTrial& t);

    std::string integrity_check();  // "ok" or SQLite's report

private:
    std::unique_ptr<store_detail::Db> db_;
    std::mutex mutex_;
};

// The precision policy the run trained with: training.precision in its settings snapshot
// (float32 for runs recorded before runs recorded it). A resumed run keeps it.
Precision run_precision(const RunInfo& r);

std::string crc32_hex(std::string_view bytes);  // "crc32:xxxxxxxx"
// The CRC of the parts one after the other, without copying them into one string first.
std::string crc32_hex(std::initializer_list<std::string_view> parts);
std::string utc_now();                            // "2024-05-01T12:00:00Z"

}  // namespace lf
