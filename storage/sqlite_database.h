// The SQLite engine of storage::Database: a file opened the way rankd needs
// it (WAL, synchronous=FULL, foreign keys, busy timeout, integrity check at
// open). One writer connection serialises all writes; reads use a small
// pool of reader connections (WAL lets them run beside the writer). The
// writer records the rows each transaction writes through SQLite's update
// and pre-update hooks.
#ifndef GORANK_STORAGE_SQLITE_DATABASE_H_
#define GORANK_STORAGE_SQLITE_DATABASE_H_

#include <mutex>

#include "storage/database.h"
#include "storage/reader_pool.h"

struct sqlite3;
struct sqlite3_stmt;

namespace gorank::storage {

class SqliteStatement : public Statement {
 public:
  SqliteStatement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement() override;

  Statement& Bind(int index, int64_t value) override;
  Statement& Bind(int index, const std::string& value) override;
  using Statement::Bind;
  Statement& BindBlob(int index, const std::string& bytes) override;
  Statement& BindNull(int index) override;
  absl::StatusOr<bool> Step() override;
  absl::Status Send() override;
  int ColumnCount() const override;
  ColumnKind ColumnType(int col) const override;
  double Double(int col) const override;
  int64_t Int(int col) const override;
  std::string Text(int col) const override;
  std::string Blob(int col) const override;

 private:
  absl::StatusOr<bool> StepNow();

  sqlite3* db_;
  sqlite3_stmt* stmt_;
  // Send() ran the first step: the next Step() answers `sent_row_`.
  bool sent_ = false;
  bool sent_row_ = false;
};

class SqliteConnection : public Connection {
 public:
  explicit SqliteConnection(sqlite3* db) : db_(db) {}
  ~SqliteConnection() override;
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  Engine engine() const override { return Engine::kSqlite; }
  absl::StatusOr<std::unique_ptr<Statement>> Prepare(const char* sql) override;
  absl::Status Exec(const std::string& sql) override;
  int64_t LastInsertRowId() override;
  int64_t Changes() const override;
  absl::StatusOr<std::unique_ptr<WrittenRowReads>> SendWrittenRowReads()
      override;
  absl::StatusOr<std::vector<std::string>> ListTables() override;
  absl::StatusOr<std::vector<std::string>> PrimaryKeyColumns(
      const std::string& table) override;
  absl::StatusOr<std::vector<std::string>> TableColumns(
      const std::string& table) override;
  absl::Status BeginWrite() override;
  absl::Status BeginRead() override;
  absl::Status Commit() override;
  void Rollback() override;
  absl::StatusOr<int> ReadSchemaVersion() override;
  absl::Status WriteSchemaVersion(int version) override;

  // Starts recording written rows (the writer connection only).
  void WatchWrites();
  // UNAVAILABLE when the file behind the connection is no longer at its
  // path (SQLite checks this itself only in rollback-journal mode; in WAL
  // mode writes would go on into a file nobody will open again).
  absl::Status CheckNotMoved();
  sqlite3* raw() { return db_; }

 private:
  using DeletedRow =
      std::pair<std::string, std::vector<std::optional<std::string>>>;
  static void OnUpdate(void* self, int op, const char* db, const char* table,
                       int64_t rowid);
  static void OnPreUpdate(void* self, sqlite3* db, int op, const char* schema,
                          const char* table, int64_t old_rowid,
                          int64_t new_rowid);

  // Runs `sql` through the statement cache when it is one or more
  // transaction-control statements (BEGIN, COMMIT, SAVEPOINT, RELEASE,
  // ROLLBACK, ';'-separated) and sets *handled; leaves anything else to
  // sqlite3_exec.
  absl::Status ExecCached(const std::string& sql, bool* handled);
  // Forgets the catalogue answers below (the schema may have changed).
  void ForgetCatalogue();

  sqlite3* db_;
  // std::less<>: found by a `const char*` without building a std::string.
  std::map<std::string, sqlite3_stmt*, std::less<>> cache_;
  // PrimaryKeyColumns and TableColumns by table: every written row's digest
  // asks for them, and the schema moves only by DDL, which runs through
  // Exec() (any statement but transaction control clears them) or
  // WriteSchemaVersion() (clears them too).
  CatalogueCache key_columns_;
  CatalogueCache columns_;
  // Rows inserted or updated since the last digest (table, rowid), and
  // rows deleted: (table, the old column values as text, NULL as nullopt).
  std::vector<std::pair<std::string, int64_t>> touched_;
  std::vector<DeletedRow> deleted_;
};

class SqliteDatabase : public Database {
 public:
  static absl::StatusOr<std::unique_ptr<Database>> Open(
      const std::string& path, const DatabaseOptions& options);
  ~SqliteDatabase() override;

  Engine engine() const override { return Engine::kSqlite; }
  absl::Status Write(
      const std::function<absl::Status(Connection&)>& fn) override;
  absl::Status Read(
      const std::function<absl::Status(Connection&)>& fn) override;
  absl::StatusOr<std::string> IntegrityCheck() override;
  absl::Status BackupTo(const std::string& dest) override;
  std::string path() const override { return path_; }
  absl::Status Probe() override;
  ReaderPoolStats reader_pool_stats() const override;

 private:
  SqliteDatabase() = default;

  std::string path_;
  std::mutex write_mu_;
  std::unique_ptr<SqliteConnection> writer_;
  ReaderPool<SqliteConnection> readers_;
};

// The SQLite application_id of an auditor's backup: every resident ID
// number is NULL in it ("RIDX").
inline constexpr int32_t kRedactedApplicationId = 0x52494458;

// Creates `path` empty with mode 0600. FAILED_PRECONDITION when it exists;
// UNAVAILABLE when it cannot be created.
absl::Status CreatePrivateFile(const std::string& path);

// Makes the backup file at `backup_path` an auditor's copy: every resident
// ID number set to NULL, the file rewritten (no old page keeps one) and
// marked with kRedactedApplicationId. UNAVAILABLE / INTERNAL from SQLite.
absl::Status RemoveResidentIds(const std::string& backup_path);
// True when the SQLite file at `sqlite_path` is such a copy.
absl::StatusOr<bool> HasResidentIdsRemoved(const std::string& sqlite_path);

// Maps an SQLite result code and message to an absl::Status (see Step()).
absl::Status SqliteError(int code, const std::string& message);

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_SQLITE_DATABASE_H_
