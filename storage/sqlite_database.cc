#include "storage/sqlite_database.h"

// Debian builds SQLite with the pre-update hook; its declarations need this.
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "services/common/status_macros.h"
#include "storage/migrations.h"
#include "storage/row_digest.h"

namespace gorank::storage {

absl::Status SqliteError(int code, const std::string& message) {
  switch (code & 0xff) {
    case SQLITE_CONSTRAINT:
      if (code == SQLITE_CONSTRAINT_UNIQUE ||
          code == SQLITE_CONSTRAINT_PRIMARYKEY) {
        return absl::AlreadyExistsError(message);
      }
      return absl::FailedPreconditionError(message);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return absl::UnavailableError("database busy: " + message);
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return absl::DataLossError(message);
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
      return absl::UnavailableError(message);
    default:
      return absl::InternalError("sqlite: " + message);
  }
}

// ------------------------------------------------------------ Statement

SqliteStatement::~SqliteStatement() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

Statement& SqliteStatement::Bind(int i, int64_t v) {
  sqlite3_bind_int64(stmt_, i, v);
  return *this;
}
Statement& SqliteStatement::Bind(int i, const std::string& v) {
  sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()),
                    SQLITE_TRANSIENT);
  return *this;
}
Statement& SqliteStatement::BindBlob(int i, const std::string& v) {
  sqlite3_bind_blob(stmt_, i, v.data(), static_cast<int>(v.size()),
                    SQLITE_TRANSIENT);
  return *this;
}
Statement& SqliteStatement::BindNull(int i) {
  sqlite3_bind_null(stmt_, i);
  return *this;
}

absl::StatusOr<bool> SqliteStatement::Step() {
  if (sent_) {
    sent_ = false;
    return sent_row_;
  }
  return StepNow();
}

absl::Status SqliteStatement::Send() {
  GORANK_ASSIGN_OR_RETURN(sent_row_, StepNow());
  sent_ = true;
  return absl::OkStatus();
}

absl::StatusOr<bool> SqliteStatement::StepNow() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return SqliteError(sqlite3_extended_errcode(db_), sqlite3_errmsg(db_));
}

int SqliteStatement::ColumnCount() const { return sqlite3_column_count(stmt_); }
ColumnKind SqliteStatement::ColumnType(int col) const {
  // SQLITE_INTEGER..SQLITE_NULL are 1..5, as ColumnKind.
  return static_cast<ColumnKind>(sqlite3_column_type(stmt_, col));
}
double SqliteStatement::Double(int col) const {
  return sqlite3_column_double(stmt_, col);
}
int64_t SqliteStatement::Int(int col) const {
  return sqlite3_column_int64(stmt_, col);
}
std::string SqliteStatement::Text(int col) const {
  const auto* p = sqlite3_column_text(stmt_, col);
  return p ? std::string(reinterpret_cast<const char*>(p),
                         sqlite3_column_bytes(stmt_, col))
           : std::string();
}
std::string SqliteStatement::Blob(int col) const {
  const void* p = sqlite3_column_blob(stmt_, col);
  return p ? std::string(static_cast<const char*>(p),
                         sqlite3_column_bytes(stmt_, col))
           : std::string();
}

// ------------------------------------------------------------ Connection

SqliteConnection::~SqliteConnection() {
  for (auto& [sql, stmt] : cache_) sqlite3_finalize(stmt);
  sqlite3_close_v2(db_);
}

absl::StatusOr<std::unique_ptr<Statement>> SqliteConnection::Prepare(
    const char* sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) {
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                      &stmt, nullptr);
    if (rc != SQLITE_OK) {
      // An I/O error while reading the schema is UNAVAILABLE like any other;
      // bad SQL (SQLITE_ERROR) stays INTERNAL.
      return SqliteError(
          sqlite3_extended_errcode(db_),
          std::string("preparing SQL failed: ") + sqlite3_errmsg(db_));
    }
    it = cache_.emplace(sql, stmt).first;
  }
  return std::make_unique<SqliteStatement>(db_, it->second);
}

absl::Status SqliteConnection::ExecCached(const std::string& sql,
                                          bool* handled) {
  *handled = false;
  // The write path's BEGIN, COMMIT and savepoints, parsed once per
  // connection instead of once per call.
  const std::vector<std::string> parts = SplitWhenAllStartWith(
      sql, {"BEGIN", "COMMIT", "SAVEPOINT ", "RELEASE ", "ROLLBACK"});
  std::vector<sqlite3_stmt*> statements;
  for (const std::string& part : parts) {
    auto it = cache_.find(part);
    if (it == cache_.end()) {
      sqlite3_stmt* stmt = nullptr;
      if (sqlite3_prepare_v3(db_, part.c_str(), -1, SQLITE_PREPARE_PERSISTENT,
                             &stmt, nullptr) != SQLITE_OK) {
        return absl::OkStatus();  // sqlite3_exec reports the error
      }
      it = cache_.emplace(part, stmt).first;
    }
    statements.push_back(it->second);
  }
  if (statements.empty()) return absl::OkStatus();
  *handled = true;
  for (sqlite3_stmt* stmt : statements) {
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE || rc == SQLITE_ROW) {
      sqlite3_reset(stmt);
      continue;
    }
    // The error is read before the reset (which reports it again).
    const int code = sqlite3_extended_errcode(db_);
    const std::string msg = sqlite3_errmsg(db_);
    sqlite3_reset(stmt);
    return SqliteError(code, msg);
  }
  return absl::OkStatus();
}

void SqliteConnection::ForgetCatalogue() {
  key_columns_.clear();
  columns_.clear();
}

absl::Status SqliteConnection::Exec(const std::string& sql) {
  bool handled = false;
  absl::Status cached = ExecCached(sql, &handled);
  if (handled) return cached;
  // Anything else may be DDL (the migrations): the catalogue may move.
  ForgetCatalogue();
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
  if (rc == SQLITE_OK) return absl::OkStatus();
  std::string msg = err ? err : sqlite3_errstr(rc);
  sqlite3_free(err);
  return SqliteError(sqlite3_extended_errcode(db_), msg);
}

namespace {
bool Audited(const std::string& table) {
  return table != "audit_log" && table.rfind("sqlite_", 0) != 0;
}

absl::StatusOr<std::vector<std::string>> Strings(Connection& c, const char* sql,
                                                 const std::string& arg,
                                                 int col) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql));
  if (!arg.empty()) st->Bind(1, arg);
  std::vector<std::string> out;
  while (true) {
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) break;
    out.push_back(st->Text(col));
  }
  return out;
}

constexpr char kListTables[] =
    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE "
    "'sqlite_%' "
    "ORDER BY name";
constexpr char kPrimaryKey[] =
    "SELECT name FROM pragma_table_info(?1) WHERE pk > 0 ORDER BY pk";
constexpr char kColumns[] =
    "SELECT name FROM pragma_table_info(?1) ORDER BY cid";
}  // namespace

void SqliteConnection::OnUpdate(void* self, int op, const char*,
                                const char* table, int64_t rowid) {
  auto* conn = static_cast<SqliteConnection*>(self);
  const std::string name(table);
  if (!Audited(name) || op == SQLITE_DELETE) return;
  conn->touched_.emplace_back(name, rowid);
}

void SqliteConnection::OnPreUpdate(void* self, sqlite3* db, int op, const char*,
                                   const char* table, int64_t, int64_t) {
  const std::string name(table);
  if (op != SQLITE_DELETE || !Audited(name)) return;
  std::vector<std::optional<std::string>> values;
  for (int i = 0; i < sqlite3_preupdate_count(db); ++i) {
    sqlite3_value* v = nullptr;
    if (sqlite3_preupdate_old(db, i, &v) != SQLITE_OK || v == nullptr ||
        sqlite3_value_type(v) == SQLITE_NULL) {
      values.push_back(std::nullopt);
      continue;
    }
    const auto* text = sqlite3_value_text(v);
    values.emplace_back(
        std::string(reinterpret_cast<const char*>(text),
                    static_cast<size_t>(sqlite3_value_bytes(v))));
  }
  static_cast<SqliteConnection*>(self)->deleted_.emplace_back(
      name, std::move(values));
}

void SqliteConnection::WatchWrites() {
  sqlite3_update_hook(
      db_,
      [](void* self, int op, const char* db, const char* table,
         sqlite3_int64 rowid) { OnUpdate(self, op, db, table, rowid); },
      this);
  sqlite3_preupdate_hook(
      db_,
      [](void* self, sqlite3* db, int op, const char* schema, const char* table,
         sqlite3_int64 old_rowid, sqlite3_int64 new_rowid) {
        OnPreUpdate(self, db, op, schema, table, old_rowid, new_rowid);
      },
      this);
}

namespace {
// Digests taken when asked for (SQLite runs every statement at once).
class DigestedRows : public Connection::WrittenRowReads {
 public:
  explicit DigestedRows(std::map<std::string, std::string> digests)
      : digests_(std::move(digests)) {}
  absl::StatusOr<std::map<std::string, std::string>> Take(
      bool hinted_only) override {
    (void)hinted_only;  // nothing is read late
    return std::move(digests_);
  }

 private:
  std::map<std::string, std::string> digests_;
};
}  // namespace

absl::StatusOr<std::unique_ptr<Connection::WrittenRowReads>>
SqliteConnection::SendWrittenRowReads() {
  std::vector<std::pair<std::string, int64_t>> touched;
  std::vector<DeletedRow> deleted;
  touched.swap(touched_);
  deleted.swap(deleted_);
  GORANK_ASSIGN_OR_RETURN(auto digests,
                          DigestRowsByRowid(*this, touched, deleted));
  return std::make_unique<DigestedRows>(std::move(digests));
}

absl::StatusOr<std::vector<std::string>> SqliteConnection::ListTables() {
  return Strings(*this, kListTables, "", 0);
}
absl::StatusOr<std::vector<std::string>> SqliteConnection::PrimaryKeyColumns(
    const std::string& table) {
  return CachedCatalogue(key_columns_, table,
                         [&] { return Strings(*this, kPrimaryKey, table, 0); });
}
absl::StatusOr<std::vector<std::string>> SqliteConnection::TableColumns(
    const std::string& table) {
  return CachedCatalogue(columns_, table,
                         [&] { return Strings(*this, kColumns, table, 0); });
}

absl::Status SqliteConnection::BeginWrite() {
  GORANK_RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
  touched_.clear();
  deleted_.clear();
  return absl::OkStatus();
}
absl::Status SqliteConnection::BeginRead() { return Exec("BEGIN"); }
absl::Status SqliteConnection::Commit() { return Exec("COMMIT"); }
void SqliteConnection::Rollback() { Exec("ROLLBACK").IgnoreError(); }

absl::StatusOr<int> SqliteConnection::ReadSchemaVersion() {
  GORANK_ASSIGN_OR_RETURN(auto st, Prepare("PRAGMA user_version"));
  GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
  return row ? static_cast<int>(st->Int(0)) : 0;
}
absl::Status SqliteConnection::WriteSchemaVersion(int version) {
  ForgetCatalogue();
  return Exec("PRAGMA user_version = " + std::to_string(version));
}

int64_t SqliteConnection::Changes() const { return sqlite3_changes64(db_); }
int64_t SqliteConnection::LastInsertRowId() {
  return sqlite3_last_insert_rowid(db_);
}

absl::Status SqliteConnection::CheckNotMoved() {
  int moved = 0;
  const int rc =
      sqlite3_file_control(db_, "main", SQLITE_FCNTL_HAS_MOVED, &moved);
  if (rc != SQLITE_OK) return SqliteError(rc, sqlite3_errstr(rc));
  if (moved == 0) return absl::OkStatus();
  // The message reaches clients: it names no path (Probe() adds it for the
  // log).
  return absl::UnavailableError(
      "the database file was moved, replaced or deleted while rankd runs: "
      "nothing can be written until it is back at its path (or rankd is "
      "restarted on a restored copy)");
}

// ------------------------------------------------------------ Database

namespace {

absl::StatusOr<std::unique_ptr<SqliteConnection>> OpenConnection(
    const std::string& path, int flags, const DatabaseOptions& options) {
  sqlite3* db = nullptr;
  const int rc =
      sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return absl::UnavailableError("cannot open database " + path + ": " + msg);
  }
  sqlite3_extended_result_codes(db, 1);
  auto conn = std::make_unique<SqliteConnection>(db);
  GORANK_RETURN_IF_ERROR(conn->Exec(
      "PRAGMA busy_timeout=" + std::to_string(options.busy_timeout_ms) +
      "; PRAGMA foreign_keys=ON; PRAGMA synchronous=FULL;"));
  return conn;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Database>> SqliteDatabase::Open(
    const std::string& path, const DatabaseOptions& options) {
  std::unique_ptr<SqliteDatabase> db(new SqliteDatabase());
  db->path_ = path;
  GORANK_ASSIGN_OR_RETURN(
      db->writer_,
      OpenConnection(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                     options));
  db->writer_->WatchWrites();
  db->writer_->set_row_digest_key(options.row_digest_key);
  // The database holds resident ID numbers: keep it private to the owner.
  ::chmod(path.c_str(), 0600);
  GORANK_RETURN_IF_ERROR(db->writer_->Exec("PRAGMA journal_mode=WAL"));
  GORANK_ASSIGN_OR_RETURN(std::string check, db->IntegrityCheck());
  if (check != "ok") {
    return absl::DataLossError("integrity check of " + path +
                               " failed: " + check);
  }
  GORANK_RETURN_IF_ERROR(Migrate(*db->writer_, -1, options.schema_only));
  const int readers = path == ":memory:" ? 0 : options.reader_connections;
  for (int i = 0; i < readers; ++i) {
    GORANK_ASSIGN_OR_RETURN(
        auto reader, OpenConnection(path, SQLITE_OPEN_READONLY, options));
    reader->set_row_digest_key(options.row_digest_key);
    db->readers_.Add(std::move(reader));
  }
  return std::unique_ptr<Database>(std::move(db));
}

SqliteDatabase::~SqliteDatabase() {
  readers_.Clear();
  if (writer_) {
    // Fold the WAL back into the main file for a clean close.
    writer_->Exec("PRAGMA wal_checkpoint(TRUNCATE)").IgnoreError();
  }
}

absl::Status SqliteDatabase::Write(
    const std::function<absl::Status(Connection&)>& fn) {
  GORANK_RETURN_IF_ERROR(write_refusal());
  std::lock_guard<std::mutex> lock(write_mu_);
  if (path_ != ":memory:") {
    GORANK_RETURN_IF_ERROR(writer_->CheckNotMoved());
  }
  return RunTransaction(*writer_, /*write=*/true, fn);
}

absl::Status SqliteDatabase::Read(
    const std::function<absl::Status(Connection&)>& fn) {
  if (readers_.empty()) {
    std::lock_guard<std::mutex> lock(write_mu_);
    return RunTransaction(*writer_, /*write=*/false, fn);
  }
  SqliteConnection* c = readers_.Acquire();
  absl::Status s = RunTransaction(*c, /*write=*/false, fn);
  readers_.Release(c);
  return s;
}

Database::ReaderPoolStats SqliteDatabase::reader_pool_stats() const {
  return readers_.Stats();
}

namespace {
constexpr char kProbeSql[] = "SELECT count(*) FROM sqlite_schema";
}  // namespace

absl::Status SqliteDatabase::Probe() {
  auto run = [&](SqliteConnection& c) -> absl::Status {
    if (path_ != ":memory:") GORANK_RETURN_IF_ERROR(c.CheckNotMoved());
    return RunTransaction(
        c, /*write=*/false, [](Connection& conn) -> absl::Status {
          GORANK_ASSIGN_OR_RETURN(auto st, conn.Prepare(kProbeSql));
          return st->Run();
        });
  };
  absl::Status s;
  if (readers_.empty()) {
    std::lock_guard<std::mutex> lock(write_mu_);
    s = run(*writer_);
  } else {
    SqliteConnection* c = readers_.Acquire();
    s = run(*c);
    readers_.Release(c);
  }
  if (s.ok()) return s;
  return absl::Status(s.code(), path_ + ": " + std::string(s.message()));
}

absl::StatusOr<std::string> SqliteDatabase::IntegrityCheck() {
  std::lock_guard<std::mutex> lock(write_mu_);
  GORANK_ASSIGN_OR_RETURN(auto st, writer_->Prepare("PRAGMA integrity_check"));
  std::string out;
  while (true) {
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) break;
    if (!out.empty()) out += "; ";
    out += st->Text(0);
  }
  return out;
}

absl::Status CreatePrivateFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) {
    if (errno == EEXIST) {
      return absl::FailedPreconditionError("backup target " + path +
                                           " already exists");
    }
    return absl::UnavailableError("cannot create " + path + ": " +
                                  std::strerror(errno));
  }
  ::close(fd);
  return absl::OkStatus();
}

absl::Status SqliteDatabase::BackupTo(const std::string& dest) {
  // Created first, empty and private (VACUUM INTO fills an empty file and
  // keeps its mode): a backup holds resident ID numbers.
  GORANK_RETURN_IF_ERROR(CreatePrivateFile(dest));
  // VACUUM INTO reads one consistent snapshot and cannot run inside an
  // explicit transaction.
  auto run = [&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto stmt, c.Prepare("VACUUM INTO ?1"));
    stmt->Bind(1, dest);
    return stmt->Run();
  };
  absl::Status s;
  if (readers_.empty()) {
    std::lock_guard<std::mutex> lock(write_mu_);
    s = run(*writer_);
  } else {
    SqliteConnection* c = readers_.Acquire();
    s = run(*c);
    readers_.Release(c);
  }
  if (!s.ok()) ::unlink(dest.c_str());
  return s;
}

namespace {

// Runs `sql` on the SQLite file at `path` (opened without rankd's set-up:
// a backup file, not a live database).
absl::Status ExecOnFile(const std::string& path, const char* sql,
                        int64_t* first_int = nullptr) {
  sqlite3* db = nullptr;
  const int flags = first_int ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    const std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close_v2(db);
    return absl::UnavailableError("cannot open " + path + ": " + msg);
  }
  absl::Status s;
  if (first_int) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
      *first_int = sqlite3_column_int64(st, 0);
    } else {
      s = SqliteError(sqlite3_extended_errcode(db), sqlite3_errmsg(db));
    }
    sqlite3_finalize(st);
  } else {
    char* err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      s = SqliteError(sqlite3_extended_errcode(db), err ? err : "failed");
    }
    sqlite3_free(err);
  }
  sqlite3_close_v2(db);
  return s;
}

}  // namespace

absl::Status RemoveResidentIds(const std::string& backup_path) {
  // VACUUM rewrites the file, so no freed page keeps an old ID number.
  static const std::string sql =
      "UPDATE players SET resident_id = NULL WHERE resident_id IS NOT NULL; "
      "PRAGMA application_id = " +
      std::to_string(kRedactedApplicationId) + "; VACUUM;";
  return ExecOnFile(backup_path, sql.c_str());
}

absl::StatusOr<bool> HasResidentIdsRemoved(const std::string& sqlite_path) {
  int64_t id = 0;
  GORANK_RETURN_IF_ERROR(ExecOnFile(sqlite_path, "PRAGMA application_id", &id));
  return id == kRedactedApplicationId;
}

}  // namespace gorank::storage
