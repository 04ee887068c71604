#include "store/sqlite.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <filesystem>

#include "layerforge/core/error.h"
#include "layerforge/core/file_io.h"

namespace lf::store_detail {

namespace {

// SQLite cannot create a WAL index beside a read-only store in a read-only folder, so such a
// store opens immutable (nothing can change it there), unless a writer's WAL holds commits.
std::string name_to_open(const std::string& path, bool read_only, int& flags) {
    std::error_code ec;
    if (!read_only || std::filesystem::exists(path + "-wal", ec)) return path;
    flags |= SQLITE_OPEN_URI;
    std::string uri = "file:";
    for (char c : path) {
        if (c == '?' || c == '#' || c == '%') {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", unsigned(static_cast<unsigned char>(c)));
            uri += hex;
        } else {
            uri += c;
        }
    }
    return uri + "?immutable=1";
}

}  // namespace

Db::Db(const std::string& path, bool create, bool read_only, int busy_timeout_ms) : path_(path) {
    check_regular_if_present(path, "run store");  // SQLite would block on a FIFO
    int flags = read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    const std::string name = name_to_open(path, read_only, flags);
    int rc = sqlite3_open_v2(name.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        if (rc == SQLITE_CANTOPEN)
            throw (create ? runtime_error : input_error)(
                path + ": cannot open the run store (" + msg + "); check that the folder exists and is writable");
        throw runtime_error(path + ": cannot open the run store (" + msg + ")");
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, busy_timeout_ms);
    try {
        // A file that is not a database fails here, on the first read.
        // Large pages keep a checkpoint blob's overflow chain short; only a new file takes it.
        // SQLite answers SQLITE_BUSY at once, without its busy handler, when two connections
        // switch a file to WAL together (a run creating its store while the studio opens it to
        // read): the settings are tried again until the busy timeout has passed. They are
        // idempotent.
        const char* settings = read_only ? "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON"
                                         : "PRAGMA page_size=65536; PRAGMA journal_mode=WAL; "
                                           // SQLite's default checkpoints the log every 1000
                                           // pages: 64 MB here. Bound it to 4 MB.
                                           "PRAGMA wal_autocheckpoint=64; PRAGMA journal_size_limit=4194304; "
                                           "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON";
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
        for (;;) {
            const int rc = sqlite3_exec(db_, settings, nullptr, nullptr, nullptr);
            if (rc == SQLITE_OK) break;
            const bool busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
            if (!busy || std::chrono::steady_clock::now() >= deadline) fail(rc, "opening the run store");
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    } catch (...) {
        sqlite3_close_v2(db_);  // the destructor does not run when the constructor throws
        db_ = nullptr;
        throw;
    }
}

// close_v2: statements still open are finalised by their owners; the handle goes with the last one.
Db::~Db() { sqlite3_close_v2(db_); }

void Db::fail(int code, const std::string& what) const {
    const std::string msg = sqlite3_errmsg(db_);
    const std::string head = path_ + ": " + what + " failed (" + msg + ")";
    switch (code & 0xff) {
    case SQLITE_FULL: throw runtime_error(head + "; the disk is full: free some space, nothing committed was lost");
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        throw runtime_error(head + "; another process holds the run store locked: wait for it or close it");
    case SQLITE_READONLY:
        // A writable file that SQLite opens read-only has a damaged header (or a newer format).
        if (folder_is_writable(std::filesystem::path(path_).parent_path().string()) && ::access(path_.c_str(), W_OK) == 0)
            throw input_error(head + "; the file is writable, so its header is damaged or from a newer SQLite: move "
                                     "it aside (a new one is created) or restore a backup");
        throw runtime_error(head + "; the run store or its folder is read-only: make it writable");
    case SQLITE_ERROR:  // "no such table", "table runs already exists": not our schema
        throw input_error(head + "; the file's tables are not a Layerforge run store's: it is damaged or another "
                                 "program's database; move it aside (a new one is created) or restore a backup");
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
        throw input_error(head + "; the file is not a Layerforge run store or is damaged: move it aside "
                                 "(a new one is created) or restore a backup");
    case SQLITE_IOERR:
        throw runtime_error(head + "; the disk may be full or failing: free some space or check it; "
                                   "nothing committed was lost");
    default: throw runtime_error(head);
    }
}

void Db::exec(const std::string& sql, const std::string& what) {
    char* err = nullptr;
    int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
    sqlite3_free(err);
    if (rc != SQLITE_OK) fail(rc, what);
}

void Db::compact() {
    exec("PRAGMA incremental_vacuum", "compacting the run store");
    // A reader's snapshot leaves a partial checkpoint (SQLITE_BUSY): the next save completes it.
    const int rc = sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
    if (rc != SQLITE_OK && (rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) fail(rc, "compacting the run store");
}

Stmt::Stmt(Db& db, const char* sql) : db_(db) {
    int rc = sqlite3_prepare_v2(db.handle(), sql, -1, &s_, nullptr);
    if (rc != SQLITE_OK) db.fail(rc, "preparing a query");
}

Stmt::~Stmt() { sqlite3_finalize(s_); }

Stmt& Stmt::bind(int i, std::int64_t v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
}
Stmt& Stmt::bind(int i, double v) {
    sqlite3_bind_double(s_, i, v);  // NaN binds as NULL
    return *this;
}
Stmt& Stmt::bind(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
    return *this;
}
Stmt& Stmt::bind_blob(int i, std::string_view v) {
    sqlite3_bind_blob64(s_, i, v.data(), v.size(), SQLITE_STATIC);
    return *this;
}
Stmt& Stmt::bind_null(int i) {
    sqlite3_bind_null(s_, i);
    return *this;
}

bool Stmt::step() {
    int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    sqlite3_reset(s_);
    db_.fail(rc, "a query");
}

void Stmt::run() {
    while (step()) {
    }
    reset();
}

void Stmt::reset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
}

std::string Stmt::text(int col) const {
    const unsigned char* p = sqlite3_column_text(s_, col);
    return p ? std::string(reinterpret_cast<const char*>(p), std::size_t(sqlite3_column_bytes(s_, col))) : std::string();
}

std::string Stmt::blob(int col) const {
    const void* p = sqlite3_column_blob(s_, col);
    return p ? std::string(static_cast<const char*>(p), std::size_t(sqlite3_column_bytes(s_, col))) : std::string();
}

Transaction::Transaction(Db& db, bool read) : db_(db) { db_.exec(read ? "BEGIN" : "BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
    if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
    db_.exec("COMMIT");
    done_ = true;
}

}  // namespace lf::store_detail
