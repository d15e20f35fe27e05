#include "storage/database.h"

// Debian builds SQLite with the pre-update hook; its declarations need this.
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>
#include <sys/stat.h>

#include "services/common/status_macros.h"
#include "storage/migrations.h"

namespace gorank::storage {

absl::Status SqliteError(int code, const std::string& message) {
  switch (code & 0xff) {
    case SQLITE_CONSTRAINT:
      if (code == SQLITE_CONSTRAINT_UNIQUE || code == SQLITE_CONSTRAINT_PRIMARYKEY) {
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

Statement::~Statement() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

Statement& Statement::Bind(int i, int64_t v) {
  sqlite3_bind_int64(stmt_, i, v);
  return *this;
}
Statement& Statement::Bind(int i, const std::string& v) {
  sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()),
                    SQLITE_TRANSIENT);
  return *this;
}
Statement& Statement::BindBlob(int i, const std::string& v) {
  sqlite3_bind_blob(stmt_, i, v.data(), static_cast<int>(v.size()),
                    SQLITE_TRANSIENT);
  return *this;
}
Statement& Statement::BindNull(int i) {
  sqlite3_bind_null(stmt_, i);
  return *this;
}
Statement& Statement::Bind(int i, const std::optional<int64_t>& v) {
  return v ? Bind(i, *v) : BindNull(i);
}
Statement& Statement::Bind(int i, const std::optional<std::string>& v) {
  return v ? Bind(i, *v) : BindNull(i);
}

absl::StatusOr<bool> Statement::Step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return SqliteError(sqlite3_extended_errcode(db_), sqlite3_errmsg(db_));
}

absl::Status Statement::Run() {
  while (true) {
    GORANK_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return absl::OkStatus();
  }
}

int Statement::ColumnCount() const { return sqlite3_column_count(stmt_); }
int Statement::ColumnType(int col) const { return sqlite3_column_type(stmt_, col); }
double Statement::Double(int col) const { return sqlite3_column_double(stmt_, col); }
int64_t Statement::Int(int col) const { return sqlite3_column_int64(stmt_, col); }
std::string Statement::Text(int col) const {
  const auto* p = sqlite3_column_text(stmt_, col);
  return p ? std::string(reinterpret_cast<const char*>(p),
                         sqlite3_column_bytes(stmt_, col))
           : std::string();
}
std::string Statement::Blob(int col) const {
  const void* p = sqlite3_column_blob(stmt_, col);
  return p ? std::string(static_cast<const char*>(p),
                         sqlite3_column_bytes(stmt_, col))
           : std::string();
}
bool Statement::IsNull(int col) const {
  return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}
std::optional<int64_t> Statement::OptInt(int col) const {
  if (IsNull(col)) return std::nullopt;
  return Int(col);
}
std::optional<std::string> Statement::OptText(int col) const {
  if (IsNull(col)) return std::nullopt;
  return Text(col);
}

// ------------------------------------------------------------ Connection

Connection::~Connection() {
  for (auto& [sql, stmt] : cache_) sqlite3_finalize(stmt);
  sqlite3_close_v2(db_);
}

absl::StatusOr<std::unique_ptr<Statement>> Connection::Prepare(const char* sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) {
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                      &stmt, nullptr);
    if (rc != SQLITE_OK) {
      // An I/O error while reading the schema is UNAVAILABLE like any other;
      // bad SQL (SQLITE_ERROR) stays INTERNAL.
      return SqliteError(sqlite3_extended_errcode(db_),
                         std::string("preparing SQL failed: ") +
                             sqlite3_errmsg(db_));
    }
    it = cache_.emplace(sql, stmt).first;
  }
  return std::make_unique<Statement>(db_, it->second);
}

absl::Status Connection::Exec(const std::string& sql) {
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
}  // namespace

void Connection::OnUpdate(void* self, int op, const char*, const char* table,
                          int64_t rowid) {
  auto* conn = static_cast<Connection*>(self);
  const std::string name(table);
  if (!Audited(name) || op == SQLITE_DELETE) return;
  conn->touched_.emplace_back(name, rowid);
}

void Connection::OnPreUpdate(void* self, sqlite3* db, int op, const char*, const char* table,
                             int64_t, int64_t) {
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
    values.emplace_back(std::string(reinterpret_cast<const char*>(text),
                                    static_cast<size_t>(sqlite3_value_bytes(v))));
  }
  static_cast<Connection*>(self)->deleted_.emplace_back(name, std::move(values));
}

std::vector<Connection::DeletedRow> Connection::TakeDeletedRows() {
  std::vector<DeletedRow> out;
  out.swap(deleted_);
  return out;
}

void Connection::WatchWrites() {
  sqlite3_update_hook(
      db_,
      [](void* self, int op, const char* db, const char* table, sqlite3_int64 rowid) {
        OnUpdate(self, op, db, table, rowid);
      },
      this);
  sqlite3_preupdate_hook(
      db_,
      [](void* self, sqlite3* db, int op, const char* schema, const char* table,
         sqlite3_int64 old_rowid, sqlite3_int64 new_rowid) {
        OnPreUpdate(self, db, op, schema, table, old_rowid, new_rowid);
      },
      this);
}

std::vector<std::pair<std::string, int64_t>> Connection::TakeTouchedRows() {
  std::vector<std::pair<std::string, int64_t>> out;
  out.swap(touched_);
  return out;
}

int64_t Connection::Changes() const { return sqlite3_changes64(db_); }

int64_t Connection::LastInsertRowId() const {
  return sqlite3_last_insert_rowid(db_);
}

// ------------------------------------------------------------ Database

namespace {

absl::StatusOr<std::unique_ptr<Connection>> OpenConnection(
    const std::string& path, int flags, const DatabaseOptions& options) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db,
                                 flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return absl::UnavailableError("cannot open database " + path + ": " + msg);
  }
  sqlite3_extended_result_codes(db, 1);
  auto conn = std::make_unique<Connection>(db);
  GORANK_RETURN_IF_ERROR(conn->Exec(
      "PRAGMA busy_timeout=" + std::to_string(options.busy_timeout_ms) +
      "; PRAGMA foreign_keys=ON; PRAGMA synchronous=FULL;"));
  return conn;
}

absl::Status Transaction(Connection& c, const char* begin,
                         const std::function<absl::Status(Connection&)>& fn) {
  GORANK_RETURN_IF_ERROR(c.Exec(begin));
  c.ClearTouchedRows();
  absl::Status s = fn(c);
  if (s.ok()) s = c.Exec("COMMIT");
  if (!s.ok()) c.Exec("ROLLBACK").IgnoreError();
  return s;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Database>> Database::Open(
    const std::string& path, const DatabaseOptions& options) {
  std::unique_ptr<Database> db(new Database());
  db->path_ = path;
  GORANK_ASSIGN_OR_RETURN(
      db->writer_,
      OpenConnection(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, options));
  db->writer_->WatchWrites();
  // The database holds resident ID numbers: keep it private to the owner.
  ::chmod(path.c_str(), 0600);
  GORANK_RETURN_IF_ERROR(db->writer_->Exec("PRAGMA journal_mode=WAL"));
  GORANK_ASSIGN_OR_RETURN(std::string check, db->IntegrityCheck());
  if (check != "ok") {
    return absl::DataLossError("integrity check of " + path + " failed: " + check);
  }
  GORANK_RETURN_IF_ERROR(Migrate(*db->writer_));
  const int readers = path == ":memory:" ? 0 : options.reader_connections;
  for (int i = 0; i < readers; ++i) {
    GORANK_ASSIGN_OR_RETURN(auto reader,
                            OpenConnection(path, SQLITE_OPEN_READONLY, options));
    db->free_readers_.push_back(reader.get());
    db->readers_.push_back(std::move(reader));
  }
  return db;
}

Database::~Database() {
  readers_.clear();
  if (writer_) {
    // Fold the WAL back into the main file for a clean close.
    writer_->Exec("PRAGMA wal_checkpoint(TRUNCATE)").IgnoreError();
  }
}

namespace {
// UNAVAILABLE when the file behind `c` is no longer at its path. SQLite
// checks this itself only in rollback-journal mode; in WAL mode writes would
// go on into a file nobody will open again. The message reaches clients: it
// names no path (Probe() adds it for the log).
absl::Status CheckNotMoved(Connection& c) {
  int moved = 0;
  const int rc =
      sqlite3_file_control(c.raw(), "main", SQLITE_FCNTL_HAS_MOVED, &moved);
  if (rc != SQLITE_OK) return SqliteError(rc, sqlite3_errstr(rc));
  if (moved == 0) return absl::OkStatus();
  return absl::UnavailableError(
      "the database file was moved, replaced or deleted while rankd runs: "
      "nothing can be written until it is back at its path (or rankd is "
      "restarted on a restored copy)");
}
}  // namespace

absl::Status Database::Write(
    const std::function<absl::Status(Connection&)>& fn) {
  std::lock_guard<std::mutex> lock(write_mu_);
  if (path_ != ":memory:") {
    GORANK_RETURN_IF_ERROR(CheckNotMoved(*writer_));
  }
  return Transaction(*writer_, "BEGIN IMMEDIATE", fn);
}

Connection* Database::AcquireReader() {
  std::unique_lock<std::mutex> lock(readers_mu_);
  if (free_readers_.empty()) ++reader_waits_;
  readers_cv_.wait(lock, [&] { return !free_readers_.empty(); });
  Connection* c = free_readers_.back();
  free_readers_.pop_back();
  return c;
}

void Database::ReleaseReader(Connection* c) {
  {
    std::lock_guard<std::mutex> lock(readers_mu_);
    free_readers_.push_back(c);
  }
  readers_cv_.notify_one();
}

absl::Status Database::Read(
    const std::function<absl::Status(Connection&)>& fn) {
  if (readers_.empty()) {
    std::lock_guard<std::mutex> lock(write_mu_);
    return Transaction(*writer_, "BEGIN", fn);
  }
  Connection* c = AcquireReader();
  absl::Status s = Transaction(*c, "BEGIN", fn);
  ReleaseReader(c);
  return s;
}

Database::ReaderPoolStats Database::reader_pool_stats() const {
  std::lock_guard<std::mutex> lock(readers_mu_);
  ReaderPoolStats stats;
  stats.size = static_cast<int>(readers_.size());
  stats.in_use = static_cast<int>(readers_.size() - free_readers_.size());
  stats.waits = reader_waits_;
  return stats;
}

namespace {
constexpr char kProbeSql[] = "SELECT count(*) FROM sqlite_schema";
}  // namespace

absl::Status Database::Probe() {
  absl::Status s = Read([&](Connection& c) -> absl::Status {
    if (path_ != ":memory:") GORANK_RETURN_IF_ERROR(CheckNotMoved(c));
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kProbeSql));
    return st->Run();
  });
  if (s.ok()) return s;
  return absl::Status(s.code(), path_ + ": " + std::string(s.message()));
}

absl::StatusOr<int> Database::SchemaVersion() {
  int version = 0;
  GORANK_RETURN_IF_ERROR(Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare("PRAGMA user_version"));
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (row) version = static_cast<int>(st->Int(0));
    return absl::OkStatus();
  }));
  return version;
}

absl::StatusOr<std::string> Database::IntegrityCheck() {
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

absl::Status Database::BackupTo(const std::string& dest) {
  struct stat st;
  if (::stat(dest.c_str(), &st) == 0) {
    return absl::FailedPreconditionError("backup target " + dest +
                                         " already exists");
  }
  // VACUUM INTO reads one consistent snapshot and cannot run inside an
  // explicit transaction.
  auto run = [&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto stmt, c.Prepare("VACUUM INTO ?1"));
    stmt->Bind(1, dest);
    return stmt->Run();
  };
  if (readers_.empty()) {
    std::lock_guard<std::mutex> lock(write_mu_);
    return run(*writer_);
  }
  Connection* c = AcquireReader();
  absl::Status s = run(*c);
  ReleaseReader(c);
  return s;
}

}  // namespace gorank::storage
