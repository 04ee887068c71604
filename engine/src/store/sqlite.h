#pragma once
// A thin RAII layer over the SQLite C API: a connection and prepared statements whose errors
// become lf::Error with a message that names the database file and says what to do.
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lf::store_detail {

class Db {
public:
    // Opens (creating when `create`) the database; WAL mode, foreign keys, a busy timeout.
    Db(const std::string& path, bool create, bool read_only, int busy_timeout_ms);
    ~Db();
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;

    sqlite3* handle() const { return db_; }
    const std::string& path() const { return path_; }
    // Runs `sql`; a failure names `what` (never the SQL: it means nothing to a user).
    void exec(const std::string& sql, const std::string& what = "updating the run store");
    // Copies the write-ahead log into the file and truncates it, so that the store's disk use
    // stays near its content's (readers that hold an old snapshot make it a partial one); then
    // returns pages that deletions freed to the file system (stores with incremental auto-vacuum).
    void compact();
    // Throws lf::Error for a failed call: runtime for disk full, locked, I/O; input for a file
    // that is not a run store. `what` says what was being done.
    [[noreturn]] void fail(int code, const std::string& what) const;

private:
    sqlite3* db_ = nullptr;
    std::string path_;
};

class Stmt {
public:
    Stmt(Db& db, const char* sql);
    ~Stmt();
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    Stmt& bind(int i, std::int64_t v);
    Stmt& bind(int i, double v);
    Stmt& bind(int i, const std::string& v);
    Stmt& bind_blob(int i, std::string_view v);  // not copied: keep it alive until step()
    Stmt& bind_null(int i);
    bool step();  // true while a row is available
    void run();   // step to completion, then reset for reuse
    void reset();

    std::int64_t integer(int col) const { return sqlite3_column_int64(s_, col); }
    double real(int col) const { return sqlite3_column_double(s_, col); }
    bool is_null(int col) const { return sqlite3_column_type(s_, col) == SQLITE_NULL; }
    std::string text(int col) const;
    std::string blob(int col) const;

private:
    Db& db_;
    sqlite3_stmt* s_ = nullptr;
};

// BEGIN IMMEDIATE ... COMMIT; rolls back when destroyed without commit(). A `read` transaction
// is a plain BEGIN: several reads see one snapshot without taking the write lock.
class Transaction {
public:
    explicit Transaction(Db& db, bool read = false);
    ~Transaction();
    void commit();

private:
    Db& db_;
    bool done_ = false;
};

}  // namespace lf::store_detail
