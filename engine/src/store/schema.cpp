#include "store/schema.h"

#include <algorithm>
#include <string>
#include <vector>

#include "layerforge/core/error.h"
#include "layerforge/store/run_store.h"
#include "store/metric_summary.h"

namespace lf::store_detail {

namespace {

// migrations[i] takes a store from version i to i + 1. Never edit a shipped step: add one.
const char* const kMigrations[] = {
    // 1: runs, metrics and checkpoints as first written.
    R"sql(
CREATE TABLE runs(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  created TEXT NOT NULL,
  finished TEXT,
  status TEXT NOT NULL,
  graph TEXT NOT NULL,
  settings TEXT NOT NULL,
  dataset_fingerprint TEXT NOT NULL DEFAULT '');
CREATE TABLE metrics(
  run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step INTEGER NOT NULL,
  epoch INTEGER NOT NULL,
  split TEXT NOT NULL,
  name TEXT NOT NULL,
  value REAL,
  wall_time REAL NOT NULL);
CREATE TABLE checkpoints(
  id INTEGER PRIMARY KEY,
  run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step INTEGER NOT NULL,
  epoch INTEGER NOT NULL,
  created TEXT NOT NULL,
  metrics TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  checksum TEXT NOT NULL,
  blob BLOB NOT NULL);
)sql",
    // 2: the device and notes of a run, pinned checkpoints, indexes for curves and listings.
    R"sql(
ALTER TABLE runs ADD COLUMN device TEXT NOT NULL DEFAULT 'cpu';
ALTER TABLE runs ADD COLUMN notes TEXT NOT NULL DEFAULT '';
ALTER TABLE checkpoints ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
CREATE INDEX metrics_by_run_step ON metrics(run, step);
CREATE INDEX checkpoints_by_run_step ON checkpoints(run, step);
)sql",
    // 3: the process training a run (store/run_owner.h), so a dead one's run reads `interrupted`.
    R"sql(
ALTER TABLE runs ADD COLUMN owner TEXT NOT NULL DEFAULT '';
)sql",
    // 4: the explorer's tags and star; where an imported run came from ('' for runs trained here).
    R"sql(
ALTER TABLE runs ADD COLUMN starred INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN source TEXT NOT NULL DEFAULT '';
CREATE TABLE run_tags(
  run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  tag TEXT NOT NULL,
  PRIMARY KEY(run, tag)) WITHOUT ROWID;
CREATE INDEX run_tags_by_tag ON run_tags(tag);
)sql",
    // 5: per-metric summaries and min/max levels per kMetricLevelSteps steps (store/metric_summary.h),
    // filled from the rows already there, so a listing of thousands of runs reads no metric rows.
    R"sql(
CREATE TABLE metric_summary(
  run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  split TEXT NOT NULL,
  name TEXT NOT NULL,
  last_step INTEGER NOT NULL,
  last_epoch INTEGER NOT NULL,
  last_value REAL,
  min_value REAL,
  max_value REAL,
  count INTEGER NOT NULL,
  PRIMARY KEY(run, split, name)) WITHOUT ROWID;
CREATE TABLE metric_levels(
  run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  split TEXT NOT NULL,
  name TEXT NOT NULL,
  bucket INTEGER NOT NULL,
  min_step INTEGER,
  min_value REAL,
  max_step INTEGER,
  max_value REAL,
  count INTEGER NOT NULL,
  PRIMARY KEY(run, split, name, bucket)) WITHOUT ROWID;
)sql",
    // 6: sweeps and their trials, so a sweep interrupted by a crash continues where it was.
    R"sql(
CREATE TABLE sweeps(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created TEXT NOT NULL,
  spec TEXT NOT NULL);
CREATE TABLE sweep_trials(
  sweep INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
  trial INTEGER NOT NULL,
  settings TEXT NOT NULL,
  run INTEGER,
  status TEXT NOT NULL DEFAULT 'pending',
  objective REAL,
  curve TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY(sweep, trial));
)sql",
};
static_assert(std::size(kMigrations) == kRunStoreVersion);

int user_version(Db& db) {
    Stmt s(db, "PRAGMA user_version");
    return s.step() ? int(s.integer(0)) : 0;
}

// The tables there are, apart from SQLite's own.
std::vector<std::string> tables(Db& db) {
    Stmt s(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
    std::vector<std::string> names;
    while (s.step()) names.push_back(s.text(0));
    return names;
}

std::string listed(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size() && i < 5; ++i) s += (i ? ", " : "") + names[i];
    return names.size() > 5 ? s + ", ..." : s;
}

void check_tables(Db& db) {
    const std::vector<std::string> have = tables(db);
    for (const char* need : {"checkpoints", "metrics", "runs"})
        if (std::find(have.begin(), have.end(), need) == have.end())
            throw input_error(db.path() + ": the run store has no '" + need + "' table (it has " +
                              (have.empty() ? std::string("none") : listed(have)) +
                              "): the file is damaged or another program's database; move it aside (a new one "
                              "is created) or restore a backup");
}

}  // namespace

void migrate(Db& db) {
    // The version and the tables read in one snapshot: read apart, a store that another process
    // (another MPI rank) creates meanwhile shows version 0 and then its first tables.
    int v = 0;
    std::vector<std::string> other;
    {
        Transaction snapshot(db, true);
        v = user_version(db);
        if (v == 0) other = tables(db);
        snapshot.commit();
    }
    if (v == 0) {
        if (!other.empty())
            throw input_error(db.path() + ": is an SQLite database with the tables " + listed(other) +
                              " but not a Layerforge run store; choose another file or move it aside");
        // Pages freed by deleted checkpoints go back to the file system (Db::compact); only a
        // file without tables takes this setting.
        db.exec("PRAGMA auto_vacuum=INCREMENTAL", "creating the run store");
    }
    if (v < 0)  // the fuzzer's damaged header; it indexed kMigrations out of bounds
        throw input_error(db.path() + ": the run store's schema version " + std::to_string(v) +
                          " is invalid; the file is damaged");
    if (v > kRunStoreVersion)
        throw input_error(db.path() + ": the run store has schema version " + std::to_string(v) +
                          ", newer than this Layerforge understands (" + std::to_string(kRunStoreVersion) +
                          "); update Layerforge");
    while (v < kRunStoreVersion) {
        Transaction t(db);
        if (user_version(db) == v) {  // another process may have migrated meanwhile
            db.exec(kMigrations[v]);
            if (v + 1 == 5) rebuild_summaries(db, std::nullopt);  // the rows recorded before summaries
            db.exec("PRAGMA user_version=" + std::to_string(v + 1));
        }
        t.commit();
        v = user_version(db);
    }
    check_tables(db);
}

}  // namespace lf::store_detail
