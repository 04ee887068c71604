// lf::RunStore: schema and migrations, retention (newest N + best + pinned), checkpoint
// resolution, checksums, metric batches from a writer thread with a concurrent reader, damaged
// files, runs whose process ended without a status, and checkpoint blobs (graph mismatch,
// partial restore, optimizer state).
#include <QtTest>

#include <filesystem>

#include <random>
#include <sqlite3.h>
#include <sys/resource.h>
#include <unistd.h>

#include <sys/wait.h>

#include <atomic>
#include <csignal>

#include <fstream>
#include <thread>

#include "graph_builder.h"
#include "layerforge/core/error.h"
#include "layerforge/store/checkpoint.h"
#include "layerforge/store/metric_writer.h"
#include "layerforge/store/run_store.h"
#include "layerforge/store/weights_file.h"
#include "layerforge/train/optimizer.h"
#include "lf_test_util.h"

namespace {

// Raw SQL on the file, as another program (or an older Layerforge) would run it.
void sql(const std::string& path, const std::string& text, const std::string& blob = "") {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    QCOMPARE(sqlite3_prepare_v2(db, text.c_str(), -1, &s, nullptr), SQLITE_OK);
    if (!blob.empty()) sqlite3_bind_blob(s, 1, blob.data(), int(blob.size()), SQLITE_TRANSIENT);
    QCOMPARE(sqlite3_step(s), SQLITE_DONE);
    sqlite3_finalize(s);
    sqlite3_close(db);
}
void exec(const std::string& path, const std::string& text) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    QVERIFY2(sqlite3_exec(db, text.c_str(), nullptr, nullptr, &err) == SQLITE_OK, err ? err : "");
    sqlite3_close(db);
}

lf::Graph mlp(std::int64_t hidden) { return mlp_builder({4}, hidden, "relu", 3).graph; }

std::string metrics(double val_loss) { return "{\"loss\": 1.0, \"val_loss\": " + std::to_string(val_loss) + "}"; }

}  // namespace

class TestRunStore : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    int n_ = 0;
    std::string fresh() { return dir_.filePath(QString("s%1.lfruns").arg(++n_)).toStdString(); }

private slots:
    void creates_a_current_schema_in_wal_mode() {
        const std::string path = fresh();
        lf::RunStore store(path);
        QCOMPARE(store.integrity_check(), std::string("ok"));
        std::int64_t id = store.create_run({.name = "first", .graph = "{}", .settings = "{}"});
        QCOMPARE(store.run(id).status, lf::RunStatus::Running);
        store.set_status(id, lf::RunStatus::Finished);
        QCOMPARE(store.run(id).status, lf::RunStatus::Finished);
        QVERIFY(!store.run(id).finished.empty());
        QCOMPARE(store.run(id).device, std::string("cpu"));
        std::ifstream f(path, std::ios::binary);
        std::string head(100, '\0');
        f.read(head.data(), 100);
        QCOMPARE(int(head[18]), 2);  // file format: WAL
        QCOMPARE(lf::RunStore::path_for_project("/a/b/my.lfproj"), std::string("/a/b/my.lfruns"));
    }

    void older_schema_migrates_and_keeps_its_data() {
        const std::string path = fresh();
        // Version 1 exactly as the first Layerforge run store wrote it.
        exec(path, R"(
CREATE TABLE runs(id INTEGER PRIMARY KEY, name TEXT NOT NULL, created TEXT NOT NULL, finished TEXT,
  status TEXT NOT NULL, graph TEXT NOT NULL, settings TEXT NOT NULL, dataset_fingerprint TEXT NOT NULL DEFAULT '');
CREATE TABLE metrics(run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, step INTEGER NOT NULL,
  epoch INTEGER NOT NULL, split TEXT NOT NULL, name TEXT NOT NULL, value REAL, wall_time REAL NOT NULL);
CREATE TABLE checkpoints(id INTEGER PRIMARY KEY, run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step INTEGER NOT NULL, epoch INTEGER NOT NULL, created TEXT NOT NULL, metrics TEXT NOT NULL,
  bytes INTEGER NOT NULL, checksum TEXT NOT NULL, blob BLOB NOT NULL);
INSERT INTO runs VALUES(1, 'old', '2024-01-01T00:00:00Z', NULL, 'finished', '{}', '{}', 'x');
INSERT INTO metrics VALUES(1, 10, 1, 'epoch', 'loss', 0.5, 0);
INSERT INTO checkpoints VALUES(1, 1, 10, 1, '2024-01-01T00:00:00Z', '{}', 3, 'crc32:352441c2', 'abc');
PRAGMA user_version=1;)");
        lf::RunStore store(path);
        QCOMPARE(store.runs().size(), std::size_t(1));
        QCOMPARE(store.run(1).name, std::string("old"));
        QCOMPARE(store.run(1).notes, std::string(""));
        QCOMPARE(store.run(1).last_step, std::int64_t(10));
        QCOMPARE(store.checkpoints().size(), std::size_t(1));
        QCOMPARE(store.checkpoints()[0].pinned, false);
        QCOMPARE(store.checkpoint_blob(1), std::string("abc"));
        store.set_pinned(1, true);
        QCOMPARE(store.run(1).tags, std::vector<std::string>{});  // version 4's columns read empty
        QCOMPARE(store.run(1).starred, false);
        QVERIFY(!store.run(1).imported());
        QCOMPARE(store.integrity_check(), std::string("ok"));
    }

    // The explorer's edits: tags (sorted, unique, checked), star, note, delete, imported runs.
    void tags_star_notes_and_delete_are_stored() {
        const std::string path = fresh();
        lf::RunStore store(path);
        const std::int64_t a = store.create_run({.name = "a", .graph = "{}", .settings = "{}", .tags = {"z", "sweep:lr", "z"}});
        const std::int64_t b = store.create_run({.name = "b", .created = "2020-05-01T10:00:00Z", .graph = "{}",
                                                 .settings = "{}", .source = "tensorboard:/logs/b"});
        QCOMPARE(store.run(a).tags, (std::vector<std::string>{"sweep:lr", "z"}));
        QCOMPARE(store.run(b).created, std::string("2020-05-01T10:00:00Z"));
        QVERIFY(store.run(b).imported());
        store.set_tags(b, {"keras", "baseline"});
        store.set_starred(b, true);
        store.set_notes(b, "from the tutorial");
        const std::vector<lf::RunInfo> all = store.runs();
        QCOMPARE(all[1].tags, (std::vector<std::string>{"baseline", "keras"}));
        QVERIFY(all[1].starred && !all[0].starred);
        QCOMPARE(all[1].notes, std::string("from the tutorial"));
        store.set_tags(b, {});
        QCOMPARE(store.run(b).tags, std::vector<std::string>{});
        for (const std::string& bad : {std::string(), std::string("a,b"), std::string("line\nbreak"), std::string(101, 'x')})
            QVERIFY_THROWS_EXCEPTION(lf::Error, store.set_tags(a, {bad}));
        QCOMPARE(store.run(a).tags.size(), std::size_t(2));  // a refused edit changes nothing
        QVERIFY_THROWS_EXCEPTION(lf::Error, store.set_starred(99, true));
        QVERIFY_THROWS_EXCEPTION(lf::Error, store.set_notes(99, ""));
        QVERIFY_THROWS_EXCEPTION(lf::Error, store.set_tags(99, {"x"}));

        // This process is alive and owns run a: it cannot be deleted while it trains.
        try {
            store.delete_run(a);
            QFAIL("a running run was deleted");
        } catch (const lf::Error& e) {
            QVERIFY2(std::string(e.what()).find("run " + std::to_string(a) + " (a) is training now") != std::string::npos, e.what());
        }
        store.append_metrics({{b, 1, 0, "train", "loss", 1.0, 0}});
        store.save_checkpoint(b, 1, 0, "{}", "blob", {});
        store.set_status(b, lf::RunStatus::Finished);
        store.delete_run(b);
        QCOMPARE(store.runs().size(), std::size_t(1));
        QVERIFY(store.metrics(b).empty());
        QVERIFY(store.checkpoints(b).empty());
        QVERIFY_THROWS_EXCEPTION(lf::Error, store.delete_run(b));
        store.set_status(a, lf::RunStatus::Finished);
        store.delete_run(a);
        QVERIFY(store.runs().empty());
        QCOMPARE(store.integrity_check(), std::string("ok"));
    }

    void run_of_a_process_that_ended_reads_interrupted() {
        // A child process creates a run and ends without a final status, as a killed trainer
        // or one whose disk filled up does. The store keeps `running`; readers see
        // `interrupted`. The live process's own run, a resumed run and a run of an older store
        // (no owner recorded) stay `running`.
        const std::string path = fresh();
        std::int64_t own = 0;
        {
            lf::RunStore store(path);
            own = store.create_run({.name = "live", .graph = "{}", .settings = "{}"});
        }
        const pid_t child = fork();
        if (child == 0) {
            lf::RunStore store(path);
            store.create_run({.name = "dead", .graph = "{}", .settings = "{}"});
            _exit(0);
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        lf::RunStore store(path);
        QCOMPARE(store.run(own).status, lf::RunStatus::Running);
        const std::int64_t dead = own + 1;
        QCOMPARE(store.run(dead).status, lf::RunStatus::Interrupted);
        QCOMPARE(store.runs()[1].status, lf::RunStatus::Interrupted);
        QVERIFY(store.run(dead).finished.empty());  // nothing was written: a reader only derives it

        sql(path, "UPDATE runs SET owner = '' WHERE id = " + std::to_string(dead));  // as migrated from v2
        QCOMPARE(store.run(dead).status, lf::RunStatus::Running);
        sql(path, "UPDATE runs SET owner = 'another-host/1/1' WHERE id = " + std::to_string(dead));
        QCOMPARE(store.run(dead).status, lf::RunStatus::Running);  // cannot tell: it may be alive there

        store.set_status(dead, lf::RunStatus::Running);  // resumed here: this process owns it now
        QCOMPARE(store.run(dead).status, lf::RunStatus::Running);
        store.set_status(dead, lf::RunStatus::Finished);
        QCOMPARE(store.run(dead).status, lf::RunStatus::Finished);
    }

    // The stored text is RunStatus's to_string, as stores written before the enum have it.
    void status_is_stored_as_its_text() {
        const std::string path = fresh();
        lf::RunStore store(path);
        const std::int64_t id = store.create_run({.name = "r"});
        auto stored = [&] {
            sqlite3* db = nullptr;
            sqlite3_open(path.c_str(), &db);
            sqlite3_stmt* s = nullptr;
            sqlite3_prepare_v2(db, ("SELECT status FROM runs WHERE id = " + std::to_string(id)).c_str(), -1, &s, nullptr);
            sqlite3_step(s);
            std::string text = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
            sqlite3_finalize(s);
            sqlite3_close(db);
            return text;
        };
        const std::pair<lf::RunStatus, const char*> texts[] = {
            {lf::RunStatus::Running, "running"}, {lf::RunStatus::Finished, "finished"},
            {lf::RunStatus::EarlyStopped, "early_stopped"}, {lf::RunStatus::Stopped, "stopped"},
            {lf::RunStatus::Failed, "failed"}};
        for (const auto& [status, text] : texts) {
            store.set_status(id, status);
            QCOMPARE(stored(), std::string(text));
            QCOMPARE(store.run(id).status, status);
            sql(path, "UPDATE runs SET status = '" + std::string(text) + "' WHERE id = " + std::to_string(id));
            QCOMPARE(store.run(id).status, status);  // as an older Layerforge wrote it
            QVERIFY(lf::parse_run_status(text) == status);
            QCOMPARE(std::string(lf::to_string(status)), std::string(text));
        }
        QCOMPARE(std::string(lf::to_string(lf::RunStatus::Interrupted)), std::string("interrupted"));
        QVERIFY(!lf::parse_run_status("Finished"));
        sql(path, "UPDATE runs SET status = 'exploded' WHERE id = " + std::to_string(id));
        try {
            store.runs();
            QFAIL("an unknown status was read");
        } catch (const lf::Error& e) {
            QVERIFY2(std::string(e.what()).find(path) != std::string::npos &&
                         std::string(e.what()).find("'exploded'") != std::string::npos,
                     e.what());
        }
    }

    void newer_schema_is_refused() {
        const std::string path = fresh();
        { lf::RunStore store(path); }
        exec(path, "PRAGMA user_version=99");
        LF_EXPECT_INPUT_ERROR(lf::RunStore{path}, "newer", "update Layerforge");
        exec(path, "PRAGMA user_version=-16777216");  // the fuzzer's damaged header
        LF_EXPECT_INPUT_ERROR(lf::RunStore{path}, path.c_str(), "-16777216 is invalid", "damaged");
    }

    void retention_keeps_newest_best_and_pinned() {
        lf::RunStore store(fresh());
        std::int64_t run = store.create_run({.name = "r", .graph = "{}", .settings = "{}"});
        const double val[] = {0.9, 0.8, 0.3, 0.7, 0.6, 0.65, 0.66, 0.67};
        const lf::RetentionPolicy keep3{.max_to_keep = 3, .best_metric = "val_loss"};
        std::vector<std::int64_t> ids;
        for (int i = 0; i < 8; ++i) {
            ids.push_back(store.save_checkpoint(run, 10 * (i + 1), i, metrics(val[i]), "blob" + std::to_string(i), keep3));
            if (i == 1) store.set_pinned(ids[1], true);
        }
        std::vector<std::int64_t> left;
        for (const auto& c : store.checkpoints(run)) left.push_back(c.id);
        QCOMPARE(left, (std::vector<std::int64_t>{ids[1], ids[2], ids[5], ids[6], ids[7]}));
        QCOMPARE(store.resolve("best").id, ids[2]);
        QCOMPARE(store.resolve("best:val_loss:max").id, ids[1]);  // the pinned 0.8
        QCOMPARE(store.resolve("latest").id, ids[7]);
        QCOMPARE(store.resolve("ckpt-60", run).id, ids[5]);
        QCOMPARE(store.resolve(std::to_string(ids[1])).step, std::int64_t(20));
        LF_EXPECT_INPUT_ERROR(store.resolve("ckpt-40"), "no checkpoint ckpt-40");
        LF_EXPECT_INPUT_ERROR(store.resolve("newest"), "latest or best");
        // max_to_keep 1 with an accuracy metric: the best by "max" survives.
        std::int64_t r2 = store.create_run({.name = "r2", .graph = "{}", .settings = "{}"});
        const lf::RetentionPolicy acc{.max_to_keep = 1, .best_metric = "val_accuracy", .maximize = true};
        auto a = store.save_checkpoint(r2, 1, 1, "{\"val_accuracy\": 0.9}", "a", acc);
        store.save_checkpoint(r2, 2, 2, "{\"val_accuracy\": 0.5}", "b", acc);
        auto c = store.save_checkpoint(r2, 3, 3, "{\"val_accuracy\": 0.4}", "c", acc);
        QCOMPARE(store.checkpoints(r2).size(), std::size_t(2));
        QCOMPARE(store.checkpoints(r2)[0].id, a);
        QCOMPARE(store.checkpoints(r2)[1].id, c);
        QCOMPARE(store.checkpoints(run).size(), std::size_t(5));  // the other run is untouched
    }

    void flipped_byte_is_detected_by_the_checksum() {
        const std::string path = fresh();
        std::int64_t id = 0;
        std::string blob(4096, 'x');
        {
            lf::RunStore store(path);
            std::int64_t run = store.create_run({.name = "r", .graph = "{}", .settings = "{}"});
            id = store.save_checkpoint(run, 1, 1, "{}", blob, {});
            QCOMPARE(store.checkpoint_blob(id), blob);
        }
        blob[1234] ^= 0x10;
        sql(path, "UPDATE checkpoints SET blob = ?1", blob);
        lf::RunStore store(path);
        bool thrown = false;
        try {
            store.checkpoint_blob(id);
        } catch (const lf::Error& e) {
            thrown = std::string(e.what()).find("damaged") != std::string::npos;
        }
        QVERIFY(thrown);
    }

    void checksum_of_parts_is_the_checksum_of_their_concatenation() {
        QCOMPARE(lf::crc32_hex(std::string("123456789")), std::string("crc32:cbf43926"));  // the CRC-32 check value
        QCOMPARE(lf::crc32_hex({"1234", "", "56789"}), std::string("crc32:cbf43926"));
        const std::string a(3000, 'a'), b = "tail";
        QCOMPARE(lf::crc32_hex({a, b}), lf::crc32_hex(a + b));
        QCOMPARE(lf::crc32_hex({}), lf::crc32_hex(std::string()));
    }

    void damaged_and_unwritable_files_give_clear_messages() {
        const std::string junk = fresh();
        std::ofstream(junk) << std::string(5000, 'j');
        LF_EXPECT_INPUT_ERROR(lf::RunStore{junk}, junk.c_str(), "not a Layerforge run store");
        LF_EXPECT_INPUT_ERROR(lf::RunStore(dir_.filePath("none.lfruns").toStdString(), false), "no run store yet");
        bool thrown = false;
        try {
            lf::RunStore(dir_.filePath("missing/dir/x.lfruns").toStdString());
        } catch (const lf::Error& e) {
            thrown = std::string(e.what()).find("writable") != std::string::npos;
        }
        QVERIFY(thrown);
        if (geteuid() != 0) {  // root writes anywhere
            QTemporaryDir ro;
            QFile::setPermissions(ro.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
            thrown = false;
            try {
                lf::RunStore((ro.path() + "/x.lfruns").toStdString());
            } catch (const lf::Error& e) {
                thrown = std::string(e.what()).find("writable") != std::string::npos;
            }
            QFile::setPermissions(ro.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
            QVERIFY(thrown);
        }
    }

    void locked_store_fails_with_a_clear_message() {
        const std::string path = fresh();
        { lf::RunStore create(path); }
        sqlite3* other = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &other), SQLITE_OK);
        QCOMPARE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
        lf::RunStore store(path, true, 100);
        bool thrown = false;
        try {
            store.create_run({.name = "r", .graph = "{}", .settings = "{}"});
        } catch (const lf::Error& e) {
            thrown = std::string(e.what()).find("locked") != std::string::npos;
        }
        QVERIFY(thrown);
        QCOMPARE(int(store.runs().size()), 0);  // readers still read
        sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(other);
        store.create_run({.name = "r", .graph = "{}", .settings = "{}"});
    }

    // A run creating its store while the studio opens the same new file to read it (the
    // checkpoint browser after a run starts): SQLite returns "database is locked" at once,
    // without waiting, when two connections switch a fresh file to WAL together. Both must open.
    void a_new_store_opened_twice_at_once_opens_both_times() {
        for (int round = 0; round < 100; ++round) {
            const std::string path = fresh();
            std::string errors[2];
            std::atomic<bool> go{false};
            // The reader tries until the file is there (before, "no run store yet" is its answer).
            std::thread reader([&] {
                while (!go) {
                }
                for (;;) {
                    try {
                        lf::RunStore store(path, false);
                        store.runs();
                        return;
                    } catch (const lf::Error& e) {
                        if (std::string(e.what()).find("no run store yet") != std::string::npos) continue;
                        errors[1] = e.what();
                        return;
                    }
                }
            });
            go = true;
            try {
                lf::RunStore store(path);
                store.create_run({.name = "r", .graph = "{}", .settings = "{}"});
            } catch (const lf::Error& e) {
                errors[0] = e.what();
            }
            reader.join();
            QVERIFY2(errors[0].empty() && errors[1].empty(), qPrintable(QString::fromStdString(errors[0] + " | " + errors[1])));
        }
    }

    // Two processes creating one new store at once (the ranks of an MPI sweep): the one that
    // comes second must not take the first one's half-made schema for another program's tables.
    void a_new_store_created_twice_at_once_creates_it_once() {
        for (int round = 0; round < 200; ++round) {
            const std::string path = fresh();
            std::string errors[2];
            std::atomic<int> ready{0};
            auto create = [&](int i) {
                ++ready;
                while (ready < 2) {
                }
                try {
                    lf::RunStore store(path);
                    store.create_run({.name = "r" + std::to_string(i), .graph = "{}", .settings = "{}"});
                } catch (const lf::Error& e) {
                    errors[i] = e.what();
                }
            };
            std::thread other(create, 1);
            create(0);
            other.join();
            QVERIFY2(errors[0].empty() && errors[1].empty(),
                     qPrintable(QString("round %1: %2 | %3").arg(round).arg(QString::fromStdString(errors[0]), QString::fromStdString(errors[1]))));
            QCOMPARE(lf::RunStore(path).runs().size(), std::size_t(2));
        }
    }

    // Disk use stays bounded during a run: 30 checkpoints of 1 MB with keep 5 (and a reader
    // polling the store meanwhile, as the studio does) never take the store and its log past a
    // small factor of the steady state; the log is truncated after each save.
    void disk_use_stays_near_the_content_during_a_run() {
        const std::string path = fresh();
        lf::RunStore store(path);
        lf::RunStore reader(path, false);
        const std::int64_t run = store.create_run({.name = "r", .graph = "{}", .settings = "{}"});
        const lf::RetentionPolicy keep5{.max_to_keep = 5};
        std::mt19937 rng(3);
        std::string blob(1 << 20, '\0');
        std::uintmax_t peak = 0;
        for (int i = 0; i < 30; ++i) {
            for (char& c : blob) c = char(rng());  // incompressible, like weights
            store.save_checkpoint(run, i + 1, i, "{}", blob, keep5);
            reader.checkpoints(run);
            std::error_code ec;
            const std::uintmax_t wal = std::filesystem::file_size(path + "-wal", ec);
            peak = std::max(peak, std::filesystem::file_size(path) + (ec ? 0 : wal));
        }
        const std::uintmax_t content = 5 * blob.size();
        QVERIFY2(peak < 2 * content, qPrintable(QString("peak %1 bytes for %2 kept").arg(peak).arg(content)));
        QCOMPARE(store.checkpoints(run).size(), std::size_t(5));
    }

    // A write that runs out of space (a file-size limit stands in for a full disk) fails with a
    // message; everything committed before stays intact and checksum-valid.
    void full_disk_keeps_what_was_committed() {
        const std::string path = fresh();
        lf::RunStore store(path);
        std::int64_t run = store.create_run({.name = "r", .graph = "{}", .settings = "{}"});
        const std::string small(10000, 's');
        std::int64_t kept = store.save_checkpoint(run, 1, 1, "{}", small, {});
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit old{};
        getrlimit(RLIMIT_FSIZE, &old);
        rlimit limit = old;
        limit.rlim_cur = 3 << 20;
        setrlimit(RLIMIT_FSIZE, &limit);
        bool thrown = false;
        try {
            store.save_checkpoint(run, 2, 1, "{}", std::string(8 << 20, 'b'), {});
        } catch (const lf::Error& e) {
            const std::string m = e.what();
            thrown = m.find(path) != std::string::npos && m.find("full") != std::string::npos;
        }
        setrlimit(RLIMIT_FSIZE, &old);
        QVERIFY(thrown);
        lf::RunStore again(path);
        QCOMPARE(again.integrity_check(), std::string("ok"));
        QCOMPARE(again.checkpoints().size(), std::size_t(1));
        QCOMPARE(again.checkpoint_blob(kept), small);
        again.save_checkpoint(run, 3, 1, "{}", small, {});  // and it works again with room
    }

    void metric_writer_batches_while_a_reader_reads() {
        const std::string path = fresh();
        lf::RunStore store(path);
        std::int64_t run = store.create_run({.name = "r", .graph = "{}", .settings = "{}"});
        lf::RunStore reader(path);
        std::atomic<bool> done{false};
        std::size_t reads = 0;
        std::thread ui([&] {
            while (!done) {
                reader.metrics(run);
                ++reads;
            }
        });
        {
            lf::MetricWriter writer(store, 1024, 5);
            for (int i = 0; i < 20000; ++i) writer.push({run, i, 1, "train", "loss", 1.0 / (i + 1), 0});
            writer.flush();
            QCOMPARE(store.metrics(run).size(), std::size_t(20000));
            for (int i = 0; i < 10; ++i) writer.push({run, 20000 + i, 2, "train", "loss", 0.1, 0});
        }  // the destructor commits the rest
        done = true;
        ui.join();
        QVERIFY(reads > 0);
        auto rows = store.metrics(run);
        QCOMPARE(rows.size(), std::size_t(20010));
        QCOMPARE(rows[5].value, 1.0 / 6);
        store.delete_metrics_after(run, 99);
        QCOMPARE(store.metrics(run).size(), std::size_t(100));
    }

    void checkpoint_round_trips_optimizer_state() {
        lf::Model m(mlp(8));
        m.init_weights(1);
        auto opt = lf::make_optimizer("Adam", {});
        opt->bind(m.weights().size());
        for (auto& [name, buf] : opt->state())
            for (std::size_t i = 0; i < buf->size(); ++i) (*buf)[i] = float(i) * (name == "m" ? 1.f : 2.f);
        opt->set_iterations(17);
        lf::TrainState s;
        s.epoch = 3;
        s.iterations = 17;
        s.shuffle_rng = "1 2 3";
        s.early_stopping = lf::EarlyStopping::State{std::nan(""), -1, 2, false};
        s.best_weights = m.weights();
        s.best_weights[0] = 42;
        const std::string blob = lf::encode_checkpoint(m, *opt, s);
        // A plain safetensors reader sees the weights by name and the optimizer slots.
        auto view = lf::parse_safetensors(blob, "blob");
        QVERIFY(view.tensors.count("dense_2/kernel"));
        QVERIFY(view.tensors.count("optimizer/m/dense_2/kernel"));
        QVERIFY(view.tensors.count("optimizer/v/dense_3/bias"));
        QVERIFY(view.metadata.count("layerforge_checkpoint"));

        lf::Model m2(mlp(8));
        m2.init_weights(2);
        auto opt2 = lf::make_optimizer("Adam", {});
        opt2->bind(m2.weights().size());
        lf::TrainState back = lf::restore_checkpoint(m2, *opt2, blob, "blob");
        QVERIFY(m2.weights() == m.weights());
        QCOMPARE(opt2->iterations(), std::int64_t(17));
        for (std::size_t k = 0; k < 2; ++k) QVERIFY(*opt2->state()[k].second == *opt->state()[k].second);
        QCOMPARE(back.epoch, std::int64_t(3));
        QCOMPARE(back.shuffle_rng, std::string("1 2 3"));
        QVERIFY(back.early_stopping && std::isnan(back.early_stopping->best) && back.early_stopping->wait == 2);
        QVERIFY(back.best_weights == s.best_weights);

        auto sgd = lf::make_optimizer("SGD", {});
        sgd->bind(m2.weights().size());
        LF_EXPECT_INPUT_ERROR(lf::restore_checkpoint(m2, *sgd, blob, "blob"), "trained with Adam", "uses SGD");

        // Integer fields holding floats (1e300 cannot become an integer) are damage, not undefined behaviour.
        for (const char* field : {"iterations", "seen", "wait"}) {  // each read by restore (the top-level "epoch" is not)
            std::string damaged = blob;
            const std::string key = std::string("\\\"") + field + "\\\":";
            const auto at = damaged.find(key);
            QVERIFY2(at != std::string::npos, field);
            const auto end = damaged.find_first_of(",}", at + key.size());
            damaged.replace(at + key.size(), end - at - key.size(), "1e300");
            std::uint64_t n = 0;  // the header grew: rewrite its little-endian length
            for (int i = 7; i >= 0; --i) n = (n << 8) | std::uint8_t(blob[std::size_t(i)]);
            n += damaged.size() - blob.size();
            for (int i = 0; i < 8; ++i) damaged[std::size_t(i)] = char((n >> (8 * i)) & 0xff);
            const std::string why = std::string("'") + field + "' is not an integer";
            LF_EXPECT_INPUT_ERROR(lf::restore_checkpoint(m2, *opt2, damaged, "blob"), "blob", "damaged", why.c_str());
        }
    }

    void mismatched_graph_is_refused_or_partially_restored() {
        lf::Model m(mlp(8));
        m.init_weights(1);
        auto opt = lf::make_optimizer("SGD", {});
        opt->bind(m.weights().size());
        const std::string blob = lf::encode_checkpoint(m, *opt, {});
        lf::Model other(mlp(16));  // dense_2 and dense_3's kernel change shape
        other.init_weights(5);
        const std::vector<float> before = other.weights();
        LF_EXPECT_INPUT_ERROR(lf::restore_checkpoint_weights(other, blob, "ckpt 4"), "ckpt 4", "do not match",
                              "dense_2/kernel: (4, 16) in the model, (4, 8) saved", "dense_3/kernel", "--partial");
        QVERIFY(other.weights() == before);
        auto skipped = lf::restore_checkpoint_weights(other, blob, "ckpt 4", true);
        QCOMPARE(skipped, (std::vector<std::string>{"dense_2/kernel", "dense_2/bias", "dense_3/kernel"}));
        const lf::WeightRef* bias = other.find_weight("dense_3/bias");
        QVERIFY(bias);
        QCOMPARE(other.weights()[bias->offset], m.weights()[m.find_weight("dense_3/bias")->offset]);
    }
};

QTEST_GUILESS_MAIN(TestRunStore)
#include "test_run_store.moc"
#include "run_status_text.h"
