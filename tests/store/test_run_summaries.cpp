// The run store's summaries (final, best, last step and epoch per metric) and min/max levels:
// kept in step with appended rows, recomputed after a resume drops rows, computed for the rows of
// a version-4 store when it upgrades, removed with their run; and the range read for charts.
#include <QtTest>

#include <sqlite3.h>

#include <cmath>
#include <map>
#include <random>
#include <tuple>

#include "layerforge/core/error.h"
#include "layerforge/store/run_store.h"

namespace {

void exec(const std::string& path, const std::string& text) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    QVERIFY2(sqlite3_exec(db, text.c_str(), nullptr, nullptr, &err) == SQLITE_OK, err ? err : "");
    sqlite3_close(db);
}

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

using Key = std::pair<std::string, std::string>;  // split, name

// The summaries and levels computed the slow way, from every row metrics() returns.
std::map<Key, lf::MetricSummary> expected_summaries(lf::RunStore& store, std::int64_t run) {
    std::map<Key, lf::MetricSummary> out;
    const double nan = std::nan("");
    for (const lf::MetricRow& r : store.metrics(run)) {  // in step order, later rows of a step last
        auto [it, added] = out.try_emplace({r.split, r.name}, lf::MetricSummary{r.split, r.name, 0, 0, 0, nan, nan, nan});
        lf::MetricSummary& m = it->second;
        m.last_step = std::max(m.last_step, r.step);
        m.last_epoch = std::max(m.last_epoch, r.epoch);
        m.last = r.value;
        ++m.count;
        if (std::isfinite(r.value)) {
            m.min = std::isnan(m.min) ? r.value : std::min(m.min, r.value);
            m.max = std::isnan(m.max) ? r.value : std::max(m.max, r.value);
        }
    }
    return out;
}

void check_summaries(lf::RunStore& store, std::int64_t run) {
    const std::map<Key, lf::MetricSummary> want = expected_summaries(store, run);
    const lf::RunSummary got = store.run_summary(run);
    QCOMPARE(got.metrics.size(), want.size());
    for (const lf::MetricSummary& m : got.metrics) {
        const lf::MetricSummary& w = want.at({m.split, m.name});
        QVERIFY2(m.last_step == w.last_step && m.last_epoch == w.last_epoch && m.count == w.count,
                 qPrintable(QString::fromStdString(m.split + "/" + m.name)));
        QVERIFY2(same(m.last, w.last) && same(m.min, w.min) && same(m.max, w.max),
                 qPrintable(QString("%1/%2: last %3 min %4 max %5, want %6 %7 %8")
                                .arg(QString::fromStdString(m.split), QString::fromStdString(m.name))
                                .arg(m.last).arg(m.min).arg(m.max).arg(w.last).arg(w.min).arg(w.max)));
    }
}

bool has_value_at(lf::RunStore& store, std::int64_t run, const std::string& split, const std::string& name,
                  std::int64_t step, double value) {
    for (const lf::MetricRow& r : store.metrics_between(run, split, name, step, step))
        if (r.value == value) return true;
    return false;
}

void check_levels(lf::RunStore& store, std::int64_t run, const std::string& split, const std::string& name) {
    std::map<std::int64_t, lf::MetricLevel> want;
    for (const lf::MetricRow& r : store.metrics(run, split)) {
        if (r.name != name) continue;
        const std::int64_t b = r.step / lf::kMetricLevelSteps;
        auto [it, added] = want.try_emplace(b, lf::MetricLevel{b, 0, 0, 0, std::nan(""), std::nan("")});
        lf::MetricLevel& l = it->second;
        ++l.count;
        if (!std::isfinite(r.value)) continue;
        if (std::isnan(l.min) || r.value < l.min) l.min = r.value, l.min_step = r.step;
        if (std::isnan(l.max) || r.value > l.max) l.max = r.value, l.max_step = r.step;
    }
    const std::vector<lf::MetricLevel> got = store.metric_levels(run, split, name);
    QCOMPARE(got.size(), want.size());
    for (const lf::MetricLevel& l : got) {
        const lf::MetricLevel& w = want.at(l.bucket);
        QCOMPARE(l.count, w.count);
        QVERIFY(same(l.min, w.min) && same(l.max, w.max));
        if (std::isfinite(l.min)) {  // ties may fall on either step; a row there holds the extreme
            QVERIFY(has_value_at(store, run, split, name, l.min_step, l.min));
            QVERIFY(has_value_at(store, run, split, name, l.max_step, l.max));
        }
    }
}

// Rows of a training run: per-step loss and accuracy, per-epoch means and validation figures,
// with a non-finite value and a step written twice (the later row counts).
std::vector<lf::MetricRow> training_rows(std::int64_t run, std::int64_t steps, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<lf::MetricRow> rows;
    for (std::int64_t s = 1; s <= steps; ++s) {
        const std::int64_t epoch = 1 + (s - 1) / 700;
        rows.push_back({run, s, epoch, "train", "loss", s == 1500 ? std::nan("") : 2.0 / double(s) + u(rng), 0});
        rows.push_back({run, s, epoch, "train", "accuracy", u(rng), 0});
        if (s % 700 == 0 || s == steps) {
            rows.push_back({run, s, epoch, "epoch", "loss", u(rng), 0});
            rows.push_back({run, s, epoch, "val", "loss", u(rng), 0});
            rows.push_back({run, s, epoch, "val", "accuracy", u(rng), 0});
        }
    }
    rows.push_back({run, steps, 1 + (steps - 1) / 700, "val", "loss", 0.25, 0});  // a step written again
    return rows;
}

// Every table exactly as a version-4 store (schema migrations 1 to 4) has it.
const char* const kVersion4 = R"(
CREATE TABLE runs(id INTEGER PRIMARY KEY, name TEXT NOT NULL, created TEXT NOT NULL, finished TEXT,
  status TEXT NOT NULL, graph TEXT NOT NULL, settings TEXT NOT NULL, dataset_fingerprint TEXT NOT NULL DEFAULT '',
  device TEXT NOT NULL DEFAULT 'cpu', notes TEXT NOT NULL DEFAULT '', owner TEXT NOT NULL DEFAULT '',
  starred INTEGER NOT NULL DEFAULT 0, source TEXT NOT NULL DEFAULT '');
CREATE TABLE metrics(run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, step INTEGER NOT NULL,
  epoch INTEGER NOT NULL, split TEXT NOT NULL, name TEXT NOT NULL, value REAL, wall_time REAL NOT NULL);
CREATE TABLE checkpoints(id INTEGER PRIMARY KEY, run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step INTEGER NOT NULL, epoch INTEGER NOT NULL, created TEXT NOT NULL, metrics TEXT NOT NULL,
  bytes INTEGER NOT NULL, checksum TEXT NOT NULL, blob BLOB NOT NULL, pinned INTEGER NOT NULL DEFAULT 0);
CREATE INDEX metrics_by_run_step ON metrics(run, step);
CREATE INDEX checkpoints_by_run_step ON checkpoints(run, step);
CREATE TABLE run_tags(run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, tag TEXT NOT NULL,
  PRIMARY KEY(run, tag)) WITHOUT ROWID;
CREATE INDEX run_tags_by_tag ON run_tags(tag);
)";

}  // namespace

class TestRunSummaries : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    int n_ = 0;
    std::string fresh() { return dir_.filePath(QString("s%1.lfruns").arg(++n_)).toStdString(); }

private slots:
    void summaries_and_levels_follow_appended_batches() {
        lf::RunStore store(fresh());
        const std::int64_t a = store.create_run({.name = "a", .graph = "{}", .settings = "{}"});
        const std::int64_t b = store.create_run({.name = "b", .graph = "{}", .settings = "{}"});
        std::vector<lf::MetricRow> rows = training_rows(a, 2600, 1), other = training_rows(b, 900, 2);
        // Batches of uneven sizes, the two runs interleaved, as the writer thread delivers them.
        for (std::size_t at = 0, n = 1; at < rows.size(); at += n, n = n * 3 % 997 + 1) {
            store.append_metrics({rows.begin() + std::ptrdiff_t(at), rows.begin() + std::ptrdiff_t(std::min(rows.size(), at + n))});
            if (at < other.size()) store.append_metrics({other[at]});
        }
        for (std::size_t at = rows.size(); at < other.size(); ++at) store.append_metrics({other[at]});
        check_summaries(store, a);
        check_summaries(store, b);
        check_levels(store, a, "train", "loss");
        check_levels(store, a, "val", "accuracy");
        QCOMPARE(store.metric_levels(a, "train", "loss").size(), std::size_t(3));  // steps 1..2600

        const lf::RunSummary s = store.run_summary(a);
        QCOMPARE(s.info.last_step, std::int64_t(2600));
        QCOMPARE(s.info.last_epoch, std::int64_t(4));
        QCOMPARE(s.find("val", "loss")->last, 0.25);  // the later row of the last step
        QCOMPARE(s.find("val", "loss")->best(), s.find("val", "loss")->min);
        QCOMPARE(s.find("val", "accuracy")->best(), s.find("val", "accuracy")->max);
        QVERIFY(!s.find("test", "loss"));
        QVERIFY(lf::higher_is_better("val_accuracy") && !lf::higher_is_better("loss"));

        const std::vector<lf::RunSummary> all = store.run_summaries();
        QCOMPARE(all.size(), std::size_t(2));
        QCOMPARE(all[1].info.name, std::string("b"));
        QCOMPARE(all[1].metrics.size(), store.run_summary(b).metrics.size());
        QCOMPARE(all[0].checkpoints, std::int64_t(0));
    }

    void resume_drops_rows_and_the_summaries_follow() {
        lf::RunStore store(fresh());
        const std::int64_t a = store.create_run({.name = "a", .graph = "{}", .settings = "{}"});
        store.append_metrics(training_rows(a, 2600, 3));
        store.save_checkpoint(a, 1400, 2, "{}", "blob", {});
        store.delete_metrics_after(a, 1400);
        check_summaries(store, a);
        check_levels(store, a, "train", "loss");
        QCOMPARE(store.run_summary(a).info.last_step, std::int64_t(1400));
        QCOMPARE(store.run_summary(a).checkpoints, std::int64_t(1));
        store.append_metrics(training_rows(a, 1800, 4));  // resumed: steps 1..1800 again on top
        check_summaries(store, a);
        check_levels(store, a, "train", "accuracy");
    }

    void metrics_between_reads_one_metric_in_a_step_range() {
        lf::RunStore store(fresh());
        const std::int64_t a = store.create_run({.name = "a", .graph = "{}", .settings = "{}"});
        store.append_metrics(training_rows(a, 3000, 5));
        const std::vector<lf::MetricRow> rows = store.metrics_between(a, "train", "accuracy", 1000, 1999);
        QCOMPARE(rows.size(), std::size_t(1000));
        QCOMPARE(rows.front().step, std::int64_t(1000));
        QCOMPARE(rows.back().step, std::int64_t(1999));
        QCOMPARE(rows.front().epoch, std::int64_t(2));
        for (const lf::MetricRow& r : rows) QVERIFY(r.split == "train" && r.name == "accuracy" && r.run == a);
        QCOMPARE(store.metrics_between(a, "val", "loss", 1, 3000).size(), std::size_t(6));  // 5 epochs, 1 rewrite
    }

    void a_version_4_store_upgrades_with_summaries_of_its_rows() {
        const std::string path = fresh();
        exec(path, std::string(kVersion4) + R"(
INSERT INTO runs(id, name, created, status, graph, settings) VALUES(1, 'old', '2024-01-01T00:00:00Z', 'finished', '{}', '{}');
INSERT INTO runs(id, name, created, status, graph, settings) VALUES(2, 'empty', '2024-01-02T00:00:00Z', 'finished', '{}', '{}');
INSERT INTO run_tags VALUES(1, 'baseline');
INSERT INTO checkpoints VALUES(1, 1, 10, 1, '2024-01-01T00:00:00Z', '{}', 3, 'crc32:352441c2', 'abc', 0);
PRAGMA user_version=4;)");
        {  // rows as a version-4 Layerforge wrote them, through SQL only
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
            sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
            sqlite3_stmt* s = nullptr;
            sqlite3_prepare_v2(db, "INSERT INTO metrics VALUES(?, ?, ?, ?, ?, ?, 0)", -1, &s, nullptr);
            for (const lf::MetricRow& r : training_rows(1, 2100, 6)) {
                sqlite3_bind_int64(s, 1, r.run);
                sqlite3_bind_int64(s, 2, r.step);
                sqlite3_bind_int64(s, 3, r.epoch);
                sqlite3_bind_text(s, 4, r.split.c_str(), -1, SQLITE_TRANSIENT);
                sqlite3_bind_text(s, 5, r.name.c_str(), -1, SQLITE_TRANSIENT);
                if (std::isfinite(r.value)) sqlite3_bind_double(s, 6, r.value);
                else sqlite3_bind_null(s, 6);
                QCOMPARE(sqlite3_step(s), SQLITE_DONE);
                sqlite3_reset(s);
            }
            sqlite3_finalize(s);
            sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
            sqlite3_close(db);
        }
        lf::RunStore store(path);
        check_summaries(store, 1);
        check_levels(store, 1, "train", "loss");
        check_levels(store, 1, "val", "loss");
        const std::vector<lf::RunSummary> all = store.run_summaries();
        QCOMPARE(all.size(), std::size_t(2));
        QCOMPARE(all[0].info.last_step, std::int64_t(2100));
        QCOMPARE(all[0].info.tags, std::vector<std::string>{"baseline"});
        QCOMPARE(all[0].checkpoints, std::int64_t(1));
        QCOMPARE(all[0].find("val", "loss")->last, 0.25);
        QVERIFY(all[1].metrics.empty());
        QCOMPARE(all[1].info.last_step, std::int64_t(0));
        // Rows appended after the upgrade extend the summaries computed from the old rows.
        store.append_metrics({{1, 2101, 4, "train", "loss", -5.0, 0}});
        check_summaries(store, 1);
        QCOMPARE(store.run_summary(1).find("train", "loss")->min, -5.0);
        QCOMPARE(store.integrity_check(), std::string("ok"));
    }

    void deleting_a_run_removes_its_summaries() {
        const std::string path = fresh();
        lf::RunStore store(path);
        const std::int64_t a = store.create_run({.name = "a", .graph = "{}", .settings = "{}"});
        store.append_metrics(training_rows(a, 1200, 7));
        store.set_status(a, lf::RunStatus::Finished);
        store.delete_run(a);
        QVERIFY(store.run_summaries().empty());
        QVERIFY(store.metric_levels(a, "train", "loss").empty());
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        sqlite3_stmt* s = nullptr;
        sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM metric_summary) + (SELECT count(*) FROM metric_levels)", -1, &s, nullptr);
        QCOMPARE(sqlite3_step(s), SQLITE_ROW);
        QCOMPARE(sqlite3_column_int64(s, 0), sqlite3_int64(0));
        sqlite3_finalize(s);
        sqlite3_close(db);
    }
};

QTEST_APPLESS_MAIN(TestRunSummaries)
#include "test_run_summaries.moc"
