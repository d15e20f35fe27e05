// Database: an SQLite database opened the way rankd needs it (WAL,
// synchronous=FULL, foreign keys, busy timeout, integrity check at open,
// schema migrated to the latest version), with a small statement API that
// reports errors as absl::Status. One writer connection serialises all
// writes; reads use a small pool of reader connections (WAL lets them run
// beside the writer). All SQL of the product lives in storage/.
#ifndef GORANK_STORAGE_DATABASE_H_
#define GORANK_STORAGE_DATABASE_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

struct sqlite3;
struct sqlite3_stmt;

namespace gorank::storage {

// A prepared statement borrowed from a connection's cache; reset and
// unbound when destroyed. Not thread-safe; lives inside one transaction.
class Statement {
 public:
  Statement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Parameters are 1-based, as in SQLite.
  Statement& Bind(int index, int64_t value);
  Statement& Bind(int index, const std::string& value);
  Statement& BindBlob(int index, const std::string& bytes);
  Statement& BindNull(int index);
  Statement& Bind(int index, const std::optional<int64_t>& value);
  Statement& Bind(int index, const std::optional<std::string>& value);

  // Advances: true when a row is available, false when done. Constraint
  // violations come back as ALREADY_EXISTS (UNIQUE) or FAILED_PRECONDITION
  // (other constraints); SQLITE_BUSY as UNAVAILABLE; anything else INTERNAL.
  absl::StatusOr<bool> Step();
  // Step() until done; for statements without rows.
  absl::Status Run();

  int ColumnCount() const;
  // SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL.
  int ColumnType(int col) const;
  double Double(int col) const;
  int64_t Int(int col) const;
  std::string Text(int col) const;
  std::string Blob(int col) const;
  bool IsNull(int col) const;
  std::optional<int64_t> OptInt(int col) const;
  std::optional<std::string> OptText(int col) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_;
};

// One SQLite connection with a statement cache. Not thread-safe: the
// Database hands it to one transaction at a time.
class Connection {
 public:
  explicit Connection(sqlite3* db) : db_(db) {}
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // `sql` must be a string literal or otherwise outlive the connection: the
  // cache is keyed by its text.
  absl::StatusOr<std::unique_ptr<Statement>> Prepare(const char* sql);
  // Runs one or more statements without results.
  absl::Status Exec(const std::string& sql);
  int64_t LastInsertRowId() const;
  // Rows changed by the last INSERT/UPDATE/DELETE.
  int64_t Changes() const;
  sqlite3* raw() { return db_; }

  // Rows inserted or updated through this connection since the last call
  // (table, rowid), in order; the audit log digests them.
  std::vector<std::pair<std::string, int64_t>> TakeTouchedRows();
  // Rows deleted since the last call: (table, the row's old column values
  // as text, NULL as nullopt), captured before the delete.
  using DeletedRow = std::pair<std::string, std::vector<std::optional<std::string>>>;
  std::vector<DeletedRow> TakeDeletedRows();
  void ClearTouchedRows() {
    touched_.clear();
    deleted_.clear();
  }
  // Starts recording touched rows (the writer connection only).
  void WatchWrites();

 private:
  static void OnUpdate(void* self, int op, const char* db, const char* table,
                       int64_t rowid);
  static void OnPreUpdate(void* self, sqlite3* db, int op, const char* schema,
                          const char* table, int64_t old_rowid, int64_t new_rowid);

  sqlite3* db_;
  std::map<std::string, sqlite3_stmt*> cache_;
  std::vector<std::pair<std::string, int64_t>> touched_;
  std::vector<DeletedRow> deleted_;
};

struct DatabaseOptions {
  int reader_connections = 4;
  int busy_timeout_ms = 5000;
  // Runs PRAGMA integrity_check at open (quick_check when false).
  bool full_integrity_check = true;
};

// Thread-safe.
class Database {
 public:
  // Opens (creating if needed) and migrates the database at `path`.
  // UNAVAILABLE when the file cannot be opened; DATA_LOSS when the integrity
  // check fails; FAILED_PRECONDITION when the file's schema is newer than
  // this binary knows.
  static absl::StatusOr<std::unique_ptr<Database>> Open(
      const std::string& path, const DatabaseOptions& options = {});
  ~Database();

  // Runs `fn` in a write transaction (BEGIN IMMEDIATE ... COMMIT, rolled
  // back when `fn` fails). Writes are serialised. UNAVAILABLE, without
  // running `fn`, when the database file was moved, replaced or deleted
  // since Open() (SQLite would write on into the orphaned file).
  absl::Status Write(const std::function<absl::Status(Connection&)>& fn);
  // Runs `fn` in a read transaction on a reader connection.
  absl::Status Read(const std::function<absl::Status(Connection&)>& fn);

  // PRAGMA user_version.
  absl::StatusOr<int> SchemaVersion();
  // "ok" or the problems PRAGMA integrity_check reports.
  absl::StatusOr<std::string> IntegrityCheck();
  // A consistent snapshot into a new file (VACUUM INTO). FAILED_PRECONDITION
  // when `dest` exists.
  absl::Status BackupTo(const std::string& dest);
  const std::string& path() const { return path_; }

  // A cheap real read through the reader pool (the health probe). OK when
  // the database answers; UNAVAILABLE when its file was moved, replaced or
  // deleted since Open() (reads still see the old file, Write() refuses) or
  // on an I/O error; DATA_LOSS when SQLite finds the file corrupt. Blocks
  // while every reader is busy.
  absl::Status Probe();

  struct ReaderPoolStats {
    int size = 0;       // reader connections (0 for ":memory:")
    int in_use = 0;     // currently lent to a read
    int64_t waits = 0;  // reads that had to wait for a free reader, ever
  };
  ReaderPoolStats reader_pool_stats() const;

 private:
  Database() = default;
  Connection* AcquireReader();
  void ReleaseReader(Connection* c);

  std::string path_;
  std::mutex write_mu_;
  std::unique_ptr<Connection> writer_;
  mutable std::mutex readers_mu_;
  std::condition_variable readers_cv_;
  int64_t reader_waits_ = 0;
  std::vector<std::unique_ptr<Connection>> readers_;
  std::vector<Connection*> free_readers_;
};

// Maps an SQLite result code and message to an absl::Status (see Step()).
absl::Status SqliteError(int code, const std::string& message);

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_DATABASE_H_
