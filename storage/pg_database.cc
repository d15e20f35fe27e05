#include "storage/pg_database.h"

#include <libpq-fe.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include "nlohmann/json.hpp"
#include "services/audit/encoding.h"
#include "services/common/replica_reads.h"
#include "services/common/status_macros.h"
#include "storage/database_copy.h"
#include "storage/migrations.h"
#include "storage/own_audit_entries.h"
#include "storage/row_digest.h"
#include "storage/sqlite_database.h"

namespace gorank::storage {
namespace {

constexpr unsigned kInt8Oid = 20;
constexpr unsigned kByteaOid = 17;

// Any fixed number: the advisory lock every write transaction of every
// rankd on the database takes first.
// One round trip: the BEGIN, the lock and the clearing of the rows noted by
// an earlier transaction that did not end cleanly.
constexpr char kBeginWrite[] =
    "BEGIN ISOLATION LEVEL READ COMMITTED; SELECT "
    "pg_advisory_xact_lock(7262637265); DELETE FROM pg_temp.rankd_written;";
constexpr char kBeginRead[] = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";
// kBeginWrite and kBeginRead as single statements, for a pipeline (which
// takes one statement a query).
constexpr const char* kBeginWriteParts[] = {
    "BEGIN ISOLATION LEVEL READ COMMITTED",
    "SELECT pg_advisory_xact_lock(7262637265)",
    "DELETE FROM pg_temp.rankd_written"};
constexpr const char* kBeginReadParts[] = {kBeginRead};

// The noted rows are deleted by the next write's BEGIN (kBeginWrite) and
// when the audit entry takes them, not ON COMMIT DELETE ROWS: that
// truncates the table's files at every commit, which cost a few ms of each
// commit (the next WAL flush waits for the file system's journal).
// kVacuumWritten every kVacuumEvery write commits keeps the table small
// (autovacuum skips temp tables).
constexpr char kSessionSetUp[] =
    "SET client_min_messages = warning;"
    "CREATE TEMP TABLE IF NOT EXISTS rankd_written(tbl text NOT NULL, key "
    "text[] NOT NULL);";
constexpr char kVacuumWritten[] = "VACUUM pg_temp.rankd_written";
constexpr int kVacuumEvery = 1000;

constexpr char kTakeWritten[] =
    "DELETE FROM pg_temp.rankd_written RETURNING tbl, array_to_json(key)::text";
constexpr char kLastId[] = "SELECT current_setting('rankd.last_id', true)";

constexpr char kListTables[] =
    "SELECT table_name FROM information_schema.tables WHERE table_schema = "
    "current_schema() "
    "AND table_type = 'BASE TABLE' AND table_name <> 'rankd_schema_version' "
    "ORDER BY table_name COLLATE \"C\"";
constexpr char kPrimaryKey[] =
    "SELECT a.attname FROM pg_index i JOIN pg_attribute a "
    "ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) "
    "WHERE i.indrelid = to_regclass(quote_ident(?1)) AND i.indisprimary "
    "ORDER BY array_position(i.indkey::int2[], a.attnum)";
constexpr char kColumns[] =
    "SELECT column_name FROM information_schema.columns WHERE table_schema = "
    "current_schema() "
    "AND table_name = ?1 ORDER BY ordinal_position";

constexpr char kSchemaVersionTable[] =
    "CREATE TABLE IF NOT EXISTS rankd_schema_version(version BIGINT NOT NULL)";
constexpr char kHasVersion[] =
    "SELECT to_regclass('rankd_schema_version') IS NOT NULL";
constexpr char kReadVersion[] = "SELECT max(version) FROM rankd_schema_version";

absl::Status StatusOfState(const std::string& state,
                           const std::string& message) {
  if (state == "23505") return absl::AlreadyExistsError(message);
  if (state.rfind("23", 0) == 0 || state == "P0001") {
    return absl::FailedPreconditionError(message);
  }
  if (state == "40001" || state == "40P01" || state == "55P03" ||
      state.rfind("08", 0) == 0 || state.rfind("53", 0) == 0 ||
      state.rfind("57P", 0) == 0 || state.rfind("58", 0) == 0) {
    return absl::UnavailableError("database unavailable: " + message);
  }
  if (state.rfind("22", 0) == 0) return absl::InvalidArgumentError(message);
  return absl::InternalError("postgresql: " + message +
                             (state.empty() ? "" : " [" + state + "]"));
}

// Whether `sql` is one statement PostgreSQL can prepare (PREPARE takes
// SELECT, INSERT, UPDATE, DELETE, MERGE and VALUES; WITH leads one of them).
bool Preparable(const std::string& sql) {
  if (sql.find(';') != std::string::npos) return false;
  size_t i = 0;
  while (i < sql.size() && (sql[i] == ' ' || sql[i] == '\n' || sql[i] == '('))
    ++i;
  std::string word;
  while (i < sql.size() && std::isalpha(static_cast<unsigned char>(sql[i]))) {
    word += static_cast<char>(std::toupper(static_cast<unsigned char>(sql[i])));
    ++i;
  }
  return word == "SELECT" || word == "INSERT" || word == "UPDATE" ||
         word == "DELETE" || word == "WITH" || word == "VALUES";
}

}  // namespace

std::string ToPostgresParameters(const std::string& sql) {
  std::string out;
  out.reserve(sql.size() + 8);
  int next = 1;
  char quote = 0;
  for (size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (quote) {
      out += c;
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      out += c;
      continue;
    }
    if (c != '?') {
      out += c;
      continue;
    }
    size_t j = i + 1;
    while (j < sql.size() && sql[j] >= '0' && sql[j] <= '9') ++j;
    if (j == i + 1) {
      out += "$" + std::to_string(next++);
    } else {
      out += "$" + sql.substr(i + 1, j - i - 1);
      next = std::atoi(sql.substr(i + 1, j - i - 1).c_str()) + 1;
    }
    i = j - 1;
  }
  return out;
}

// ------------------------------------------------------------ Statement

PgStatement::~PgStatement() {
  if (queued_) conn_->Forget(this);
  if (result_) PQclear(result_);
}

PgStatement::Param& PgStatement::At(int index) {
  if (index < 1) index = 1;
  if (params_.size() < static_cast<size_t>(index)) params_.resize(index);
  return params_[index - 1];
}

Statement& PgStatement::Bind(int i, int64_t v) {
  At(i) = Param{std::to_string(v), kInt8Oid, 0};
  return *this;
}
Statement& PgStatement::Bind(int i, const std::string& v) {
  // Text is sent untyped: the server reads it as the type the SQL needs
  // there (as SQLite's loose typing would).
  At(i) = Param{v, 0, 0};
  return *this;
}
Statement& PgStatement::BindBlob(int i, const std::string& v) {
  At(i) = Param{v, kByteaOid, 1};
  return *this;
}
Statement& PgStatement::BindNull(int i) {
  At(i) = Param{std::nullopt, 0, 0};
  return *this;
}

void PgStatement::Adopt(PGresult* result) {
  if (result_) PQclear(result_);
  result_ = result;
  rows_ = PQntuples(result_);
  row_ = -1;
  queued_ = false;
  send_error_ = absl::OkStatus();
}

void PgStatement::Fail(absl::Status error) {
  queued_ = false;
  send_error_ = std::move(error);
}

absl::Status PgStatement::Send() {
  if (queued_ || result_ || !send_error_.ok()) {
    return absl::InternalError("a statement is sent once, before any Step()");
  }
  PgPendingCommand command;
  command.sql = sql_;
  for (const Param& p : params_) {
    command.values.push_back(p.value);
    command.formats.push_back(p.format);
    command.types.push_back(p.type);
  }
  command.owner = this;
  conn_->Queue(std::move(command));
  queued_ = true;
  return absl::OkStatus();
}

absl::StatusOr<bool> PgStatement::Step() {
  if (queued_) {
    GORANK_RETURN_IF_ERROR(conn_->FlushPending());
    if (queued_) return absl::InternalError("a sent statement got no answer");
  }
  GORANK_RETURN_IF_ERROR(send_error_);
  if (!result_) {
    std::vector<const char*> values;
    std::vector<int> lengths, formats;
    std::vector<unsigned> types;
    for (const Param& p : params_) {
      values.push_back(p.value ? p.value->data() : nullptr);
      lengths.push_back(p.value ? static_cast<int>(p.value->size()) : 0);
      formats.push_back(p.format);
      types.push_back(p.type);
    }
    GORANK_ASSIGN_OR_RETURN(
        result_, conn_->Execute(sql_, values, lengths, formats, types));
    rows_ = PQntuples(result_);
    row_ = -1;
  }
  if (row_ + 1 >= rows_) {
    row_ = rows_;
    return false;
  }
  ++row_;
  return true;
}

int PgStatement::ColumnCount() const {
  return result_ ? PQnfields(result_) : 0;
}

ColumnKind PgStatement::ColumnType(int col) const {
  if (!result_ || row_ < 0 || row_ >= rows_ ||
      PQgetisnull(result_, row_, col)) {
    return kColumnNull;
  }
  switch (PQftype(result_, col)) {
    case 16:  // bool
    case 20:  // int8
    case 21:  // int2
    case 23:  // int4
    case 26:  // oid
      return kColumnInteger;
    case 700:
    case 701:
      return kColumnFloat;
    case 1700:  // numeric: sum() of integers
      return std::strchr(PQgetvalue(result_, row_, col), '.') ? kColumnFloat
                                                              : kColumnInteger;
    case kByteaOid:
      return kColumnBlob;
    default:
      return kColumnText;
  }
}

double PgStatement::Double(int col) const {
  if (ColumnType(col) == kColumnNull) return 0;
  return std::strtod(PQgetvalue(result_, row_, col), nullptr);
}

int64_t PgStatement::Int(int col) const {
  if (ColumnType(col) == kColumnNull) return 0;
  const char* v = PQgetvalue(result_, row_, col);
  if (PQftype(result_, col) == 16) return v[0] == 't' ? 1 : 0;
  return std::strtoll(v, nullptr, 10);
}

std::string PgStatement::Text(int col) const {
  if (ColumnType(col) == kColumnNull) return std::string();
  if (PQftype(result_, col) == kByteaOid) return Blob(col);
  return std::string(PQgetvalue(result_, row_, col),
                     static_cast<size_t>(PQgetlength(result_, row_, col)));
}

std::string PgStatement::Blob(int col) const {
  if (ColumnType(col) == kColumnNull) return std::string();
  const char* v = PQgetvalue(result_, row_, col);
  if (PQftype(result_, col) != kByteaOid) {
    return std::string(v, static_cast<size_t>(PQgetlength(result_, row_, col)));
  }
  size_t n = 0;
  unsigned char* bytes =
      PQunescapeBytea(reinterpret_cast<const unsigned char*>(v), &n);
  std::string out(reinterpret_cast<const char*>(bytes), n);
  PQfreemem(bytes);
  return out;
}

// ------------------------------------------------------------ Connection

absl::StatusOr<std::unique_ptr<PgConnection>> PgConnection::Connect(
    const std::string& url, bool writer) {
  std::unique_ptr<PgConnection> c(new PgConnection(url, writer));
  GORANK_RETURN_IF_ERROR(c->EnsureConnected());
  return c;
}

PgConnection::~PgConnection() {
  if (conn_) PQfinish(conn_);
}

absl::Status PgConnection::EnsureConnected() {
  if (conn_ && PQstatus(conn_) == CONNECTION_OK && session_ready_)
    return absl::OkStatus();
  if (conn_) {
    PQfinish(conn_);
    conn_ = nullptr;
  }
  session_ready_ = false;
  prepared_.clear();  // a new session has none
  commit_pending_ = false;
  // The URL's own settings win over these defaults (expand_dbname: later
  // keywords override earlier ones).
  const char* keys[] = {"connect_timeout", "application_name", "dbname",
                        nullptr};
  const char* values[] = {"5", "rankd", url_.c_str(), nullptr};
  conn_ = PQconnectdbParams(keys, values, 1);
  if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) {
    std::string msg = conn_ ? PQerrorMessage(conn_) : "out of memory";
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' '))
      msg.pop_back();
    if (conn_) PQfinish(conn_);
    conn_ = nullptr;
    return absl::UnavailableError("cannot reach the PostgreSQL database " +
                                  DisplayAddress(url_) + ": " + msg);
  }
  GORANK_RETURN_IF_ERROR(SetUpSession());
  session_ready_ = true;
  return absl::OkStatus();
}

absl::Status PgConnection::SetUpSession() {
  PGresult* r = PQexec(
      conn_, writer_ ? kSessionSetUp : "SET client_min_messages = warning");
  absl::Status s = ErrorOf(r, "setting up the session");
  PQclear(r);
  return s;
}

absl::Status PgConnection::ErrorOf(PGresult* r, const std::string& what) {
  const ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ||
      st == PGRES_EMPTY_QUERY) {
    return absl::OkStatus();
  }
  const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  std::string msg = r ? PQresultErrorMessage(r) : "";
  if (msg.empty() && conn_) msg = PQerrorMessage(conn_);
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' '))
    msg.pop_back();
  if (msg.rfind("ERROR:  ", 0) == 0) msg = msg.substr(8);
  if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
    session_ready_ = false;
    return absl::UnavailableError("the PostgreSQL database went away (" + what +
                                  "): " + msg);
  }
  return StatusOfState(state ? state : "", msg);
}

absl::StatusOr<const std::string*> PgConnection::PreparedName(
    const std::string& sql, const std::vector<unsigned>& types) {
  std::string key = sql;
  for (unsigned t : types) key += '\0' + std::to_string(t);
  auto it = prepared_.find(key);
  if (it != prepared_.end()) return &it->second;
  std::string name = "rankd_" + std::to_string(prepared_.size() + 1);
  PGresult* r = PQprepare(conn_, name.c_str(), sql.c_str(),
                          static_cast<int>(types.size()),
                          reinterpret_cast<const Oid*>(types.data()));
  absl::Status s = ErrorOf(r, "preparing SQL");
  PQclear(r);
  if (!s.ok()) return s;
  return &prepared_.emplace(std::move(key), std::move(name)).first->second;
}

absl::StatusOr<PGresult*> PgConnection::ExecuteOnce(
    const std::string* sql, const std::vector<const char*>& values,
    const std::vector<int>& lengths, const std::vector<int>& formats,
    const std::vector<unsigned>& types, PendingBegin begin,
    const std::vector<PgPendingCommand>& pending) {
  const bool write = begin == PendingBegin::kWrite;
  // Every command of the round trip, in order: the pending BEGIN (and the
  // write's lock and clearing), the pending commands, then `sql`.
  struct Item {
    const char* text = nullptr;         // a command without parameters
    const std::string* name = nullptr;  // or a prepared statement
    const std::string* sql = nullptr;   // or an unprepared one
    int n = 0;
    const char* const* values = nullptr;
    const int* lengths = nullptr;
    const int* formats = nullptr;
    const unsigned* types = nullptr;
    const char* what = "running SQL";
    const PgPendingCommand* command = nullptr;  // a pending one
  };
  std::vector<Item> items;
  if (begin != PendingBegin::kNone) {
    const char* what = write ? "beginning a write" : "beginning a read";
    Item begun{write ? kBeginWriteParts[0] : kBeginReadParts[0]};
    begun.what = what;
    items.push_back(begun);
    if (write) {
      // The write's lock and clearing are prepared as any statement (they
      // run at every write); the BEGIN itself cannot be.
      static const std::string kWriteLock = kBeginWriteParts[1];
      static const std::string kWriteClear = kBeginWriteParts[2];
      for (const std::string* part : {&kWriteLock, &kWriteClear}) {
        Item item;
        item.sql = part;
        item.what = what;
        items.push_back(item);
      }
    }
  }
  // The pending statements' parameters as libpq takes them.
  std::vector<std::vector<const char*>> pending_values(pending.size());
  std::vector<std::vector<int>> pending_lengths(pending.size());
  for (size_t i = 0; i < pending.size(); ++i) {
    const PgPendingCommand& c = pending[i];
    Item item;
    item.command = &c;
    if (c.sql == nullptr) {
      item.text = c.text.c_str();
      item.what = "running a savepoint";
      items.push_back(item);
      continue;
    }
    for (const auto& v : c.values) {
      pending_values[i].push_back(v ? v->data() : nullptr);
      pending_lengths[i].push_back(v ? static_cast<int>(v->size()) : 0);
    }
    item.sql = c.sql;
    item.n = static_cast<int>(c.values.size());
    item.values = pending_values[i].data();
    item.lengths = pending_lengths[i].data();
    item.formats = c.formats.data();
    item.types = c.types.data();
    items.push_back(item);
  }
  if (sql != nullptr) {
    Item item;
    item.sql = sql;
    item.n = static_cast<int>(values.size());
    item.values = values.data();
    item.lengths = lengths.data();
    item.formats = formats.data();
    item.types = types.data();
    items.push_back(item);
  }
  if (items.empty()) return nullptr;
  // Statements are prepared first (a round trip each, the first time only).
  for (Item& item : items) {
    if (item.sql == nullptr || !Preparable(*item.sql)) continue;
    absl::StatusOr<const std::string*> name = PreparedName(
        *item.sql, std::vector<unsigned>(item.types, item.types + item.n));
    if (!name.ok()) {
      // Nothing is sent: the BEGIN is still to come, and a sent statement
      // among them did not run.
      begin_pending_ = begin;
      for (const Item& other : items) {
        if (other.command && other.command->owner)
          other.command->owner->Fail(name.status());
        if (other.command && other.command->sql) poisoned_ = name.status();
      }
      return name.status();
    }
    item.name = *name;
  }
  auto send = [&](const Item& item) {
    if (item.text) {
      return PQsendQueryParams(conn_, item.text, 0, nullptr, nullptr, nullptr,
                               nullptr, 0);
    }
    return item.name
               ? PQsendQueryPrepared(conn_, item.name->c_str(), item.n,
                                     item.values, item.lengths, item.formats, 0)
               : PQsendQueryParams(conn_, item.sql->c_str(), item.n,
                                   reinterpret_cast<const Oid*>(item.types),
                                   item.values, item.lengths, item.formats, 0);
  };
  auto exec = [&](const Item& item) {
    if (item.text) return PQexec(conn_, item.text);
    return item.name
               ? PQexecPrepared(conn_, item.name->c_str(), item.n, item.values,
                                item.lengths, item.formats, 0)
               : PQexecParams(conn_, item.sql->c_str(), item.n,
                              reinterpret_cast<const Oid*>(item.types),
                              item.values, item.lengths, item.formats, 0);
  };
  // One pipeline: one round trip. Each query's results end with a null;
  // the sync's result ends the pipeline. After a failed query the later ones
  // answer PGRES_PIPELINE_ABORTED. Without pipeline mode, one trip each.
  const bool pipelined = items.size() > 1 && PQenterPipelineMode(conn_) == 1;
  bool sent = true;
  if (pipelined) {
    for (const Item& item : items) sent = sent && send(item) == 1;
    sent = sent && PQpipelineSync(conn_) == 1;
  }
  absl::Status failed;          // the first failure; the rest did not run
  PGresult* carried = nullptr;  // `sql`'s answer
  for (const Item& item : items) {
    PGresult* r = nullptr;
    if (!pipelined) {
      r = failed.ok() ? exec(item) : nullptr;
    } else if (sent) {
      r = PQgetResult(conn_);
      if (r) {
        while (PGresult* more = PQgetResult(conn_)) PQclear(more);
      }
    }
    if (failed.ok()) {
      failed = sent ? ErrorOf(r, item.what)
                    : ErrorOf(nullptr, write ? "sending a write"
                                             : "sending a statement");
    }
    // A sent statement that failed or did not run: the write cannot commit.
    if (!failed.ok() && item.command && item.command->sql) poisoned_ = failed;
    PgStatement* owner = item.command ? item.command->owner : nullptr;
    if (failed.ok() && owner) {
      owner->Adopt(r);
    } else if (failed.ok() && &item == &items.back() && sql != nullptr) {
      carried = r;
    } else {
      if (owner) owner->Fail(failed);
      if (r) PQclear(r);
    }
  }
  if (pipelined) {
    if (sent) {
      if (PGresult* sync = PQgetResult(conn_)) PQclear(sync);
    }
    // Left in pipeline mode only when the connection broke: it is then
    // reconnected before its next use.
    PQexitPipelineMode(conn_);
  }
  if (!failed.ok()) {
    if (carried) PQclear(carried);
    return failed;
  }
  if (carried) {
    const char* tuples = PQcmdTuples(carried);
    changes_ = (tuples && *tuples) ? std::strtoll(tuples, nullptr, 10) : 0;
  }
  return carried;
}

absl::StatusOr<PGresult*> PgConnection::Execute(
    const std::string* sql, const std::vector<const char*>& values,
    const std::vector<int>& lengths, const std::vector<int>& formats,
    const std::vector<unsigned>& types) {
  if (!conn_)
    return absl::UnavailableError("the PostgreSQL connection is closed");
  DrainPendingCommit().IgnoreError();
  const PendingBegin begin = begin_pending_;
  begin_pending_ = PendingBegin::kNone;
  const std::vector<PgPendingCommand> pending = std::exchange(pending_, {});
  absl::StatusOr<PGresult*> r =
      ExecuteOnce(sql, values, lengths, formats, types, begin, pending);
  if (r.ok() || begin == PendingBegin::kNone ||
      (conn_ && PQstatus(conn_) == CONNECTION_OK)) {
    return r;
  }
  // The server dropped the connection while it sat idle (a restart, a
  // fail-over) before this transaction's first statement: nothing has run,
  // so connect again and begin once more.
  session_ready_ = false;
  poisoned_ = absl::OkStatus();
  GORANK_RETURN_IF_ERROR(EnsureConnected());
  return ExecuteOnce(sql, values, lengths, formats, types, begin, pending);
}

absl::Status PgConnection::FlushPending() {
  if (begin_pending_ == PendingBegin::kNone && pending_.empty())
    return absl::OkStatus();
  return Execute(nullptr, {}, {}, {}, {}).status();
}

void PgConnection::Forget(const PgStatement* owner) {
  for (PgPendingCommand& c : pending_) {
    if (c.owner == owner) c.owner = nullptr;
  }
}

void PgConnection::ForgetTransaction(const absl::Status& why) {
  for (PgPendingCommand& c : std::exchange(pending_, {})) {
    if (c.owner) c.owner->Fail(why);
  }
  poisoned_ = absl::OkStatus();
  expected_rows_.clear();
}

absl::Status PgConnection::DrainPendingCommit() {
  if (!commit_pending_) return absl::OkStatus();
  commit_pending_ = false;
  absl::Status s;
  while (PGresult* r = PQgetResult(conn_)) {
    if (s.ok()) s = ErrorOf(r, "ending a read");
    PQclear(r);
  }
  return s;
}

absl::Status PgConnection::FlushBegin(const std::string& sql) {
  const PendingBegin begin = begin_pending_;
  if (begin == PendingBegin::kNone) return absl::OkStatus();
  begin_pending_ = PendingBegin::kNone;
  const std::string text =
      std::string(begin == PendingBegin::kWrite ? kBeginWrite : kBeginRead) +
      (sql.empty() ? "" : ";" + sql);
  return Begin(text.c_str());
}

absl::StatusOr<std::unique_ptr<Statement>> PgConnection::Prepare(
    const char* sql) {
  auto it = translated_.find(sql);
  if (it == translated_.end())
    it = translated_.emplace(sql, ToPostgresParameters(sql)).first;
  return std::make_unique<PgStatement>(this, &it->second);
}

absl::Status PgConnection::Exec(const std::string& sql) {
  if (!conn_)
    return absl::UnavailableError("the PostgreSQL connection is closed");
  DrainPendingCommit().IgnoreError();
  // A pending BEGIN goes with `sql`, in one round trip.
  if (begin_pending_ != PendingBegin::kNone && pending_.empty())
    return FlushBegin(sql);
  // Inside a write, savepoints wait for the next statement and go to the
  // server in its round trip (a failed one fails that statement).
  if (writer_ && !in_read_) {
    std::vector<std::string> savepoints =
        SplitWhenAllStartWith(sql, {"SAVEPOINT ", "RELEASE SAVEPOINT "});
    if (!savepoints.empty()) {
      for (std::string& s : savepoints) {
        PgPendingCommand c;
        c.text = std::move(s);
        pending_.push_back(std::move(c));
      }
      return absl::OkStatus();
    }
  }
  if (begin_pending_ != PendingBegin::kNone || !pending_.empty()) {
    // The pending commands, then `sql` (one statement: a pipeline takes one
    // a query) in the same round trip.
    if (sql.find(';') == std::string::npos) {
      GORANK_ASSIGN_OR_RETURN(PGresult * r, Execute(&sql, {}, {}, {}, {}));
      PQclear(r);
      return absl::OkStatus();
    }
    GORANK_RETURN_IF_ERROR(FlushPending());
  }
  PGresult* r = PQexec(conn_, sql.c_str());
  absl::Status s = ErrorOf(r, "running SQL");
  PQclear(r);
  return s;
}

int64_t PgConnection::LastInsertRowId() {
  auto st = Prepare(kLastId);
  if (!st.ok()) return 0;
  auto row = (*st)->Step();
  if (!row.ok() || !*row) return 0;
  return (*st)->Int(0);
}

namespace {
// "table:k1/k2", the digest map's key of a written row.
std::string RowName(const std::string& table,
                    const std::vector<std::string>& key) {
  std::string joined;
  for (size_t i = 0; i < key.size(); ++i) joined += (i ? "/" : "") + key[i];
  return table + ":" + joined;
}
}  // namespace

// SendWrittenRowReads' answer: the hinted rows' reads and the list of
// written rows, sent.
class PgConnection::SentRowReads : public Connection::WrittenRowReads {
 public:
  SentRowReads(PgConnection* conn,
               std::map<std::string, std::unique_ptr<Statement>> ahead,
               std::unique_ptr<Statement> list)
      : conn_(conn), ahead_(std::move(ahead)), list_(std::move(list)) {}

  absl::StatusOr<std::map<std::string, std::string>> Take(
      bool hinted_only) override {
    if (!list_) return absl::InternalError("written rows taken twice");
    std::unique_ptr<Statement> list = std::move(list_);
    std::vector<RowKey> rows;
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, list->Step());
      if (!row) break;
      const nlohmann::json key =
          nlohmann::json::parse(list->Text(1), nullptr, false);
      std::vector<std::string> parts;
      if (key.is_array()) {
        for (const auto& part : key)
          parts.push_back(part.is_string() ? part.get<std::string>() : "");
      }
      rows.emplace_back(list->Text(0), std::move(parts));
      if (hinted_only &&
          !ahead_.count(RowName(rows.back().first, rows.back().second))) {
        return absl::AbortedError("the written row " + rows.back().first +
                                  " was not named ahead");
      }
    }
    return conn_->DigestRowsPipelined(rows, std::move(ahead_));
  }

 private:
  PgConnection* conn_;
  std::map<std::string, std::unique_ptr<Statement>> ahead_;
  std::unique_ptr<Statement> list_;
};

absl::StatusOr<std::unique_ptr<Connection::WrittenRowReads>>
PgConnection::SendWrittenRowReads() {
  // The hinted rows' reads go in front of kTakeWritten: after every write
  // of the transaction so far, and before what is sent after it.
  std::map<std::string, std::unique_ptr<Statement>> ahead;
  for (const RowKey& row : std::exchange(expected_rows_, {})) {
    const std::string name = RowName(row.first, row.second);
    if (ahead.count(name)) continue;
    GORANK_ASSIGN_OR_RETURN(auto st, SendRowRead(row));
    ahead.emplace(name, std::move(st));
  }
  GORANK_ASSIGN_OR_RETURN(auto list, Prepare(kTakeWritten));
  GORANK_RETURN_IF_ERROR(list->Send());
  return std::make_unique<SentRowReads>(this, std::move(ahead),
                                        std::move(list));
}

absl::StatusOr<std::unique_ptr<Statement>> PgConnection::SendRowRead(
    const RowKey& row) {
  auto read = row_reads_.find(row.first);
  if (read == row_reads_.end()) {
    GORANK_ASSIGN_OR_RETURN(std::vector<std::string> pk,
                            PrimaryKeyColumns(row.first));
    GORANK_ASSIGN_OR_RETURN(std::string key, KeyExpression(*this, row.first));
    std::string text =
        "SELECT " + key + ", * FROM " + QuoteIdentifier(row.first) + " WHERE ";
    for (size_t i = 0; i < pk.size(); ++i) {
      text += (i ? " AND " : "") + QuoteIdentifier(pk[i]) + " = ?" +
              std::to_string(i + 1);
    }
    read = row_reads_.emplace(row.first, RowRead{pk.size(), std::move(text)})
               .first;
  }
  if (read->second.key_columns != row.second.size()) {
    return absl::InternalError(
        "written row of " + row.first + " has " +
        std::to_string(row.second.size()) + " key values, the key " +
        std::to_string(read->second.key_columns) + " columns");
  }
  GORANK_ASSIGN_OR_RETURN(auto st, Prepare(read->second.sql.c_str()));
  for (size_t i = 0; i < row.second.size(); ++i)
    st->Bind(static_cast<int>(i + 1), row.second[i]);
  GORANK_RETURN_IF_ERROR(st->Send());
  return st;
}

absl::StatusOr<std::map<std::string, std::string>>
PgConnection::DigestRowsPipelined(
    const std::vector<RowKey>& rows,
    std::map<std::string, std::unique_ptr<Statement>> ahead) {
  std::vector<std::pair<std::string, std::unique_ptr<Statement>>> reads;
  std::set<std::string> seen;
  for (const RowKey& row : rows) {
    std::string name = RowName(row.first, row.second);
    if (!seen.insert(name).second) continue;
    auto sent = ahead.find(name);
    if (sent != ahead.end()) {
      reads.emplace_back(std::move(name), std::move(sent->second));
      continue;
    }
    // Every other row's SELECT in one round trip (the first Step() of one
    // sends them all).
    GORANK_ASSIGN_OR_RETURN(auto st, SendRowRead(row));
    reads.emplace_back(std::move(name), std::move(st));
  }
  std::map<std::string, std::string> out;
  for (auto& [name, st] : reads) {
    GORANK_ASSIGN_OR_RETURN(bool found, st->Step());
    out[name] = found ? DigestColumns(*st, row_digest_key()) : kDeletedRow;
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> PgConnection::Strings(
    const char* sql, const std::string& arg) {
  GORANK_ASSIGN_OR_RETURN(auto st, Prepare(sql));
  if (!arg.empty()) st->Bind(1, arg);
  std::vector<std::string> out;
  while (true) {
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) break;
    out.push_back(st->Text(0));
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> PgConnection::ListTables() {
  return Strings(kListTables, "");
}

absl::StatusOr<std::vector<std::string>> PgConnection::PrimaryKeyColumns(
    const std::string& table) {
  return CachedCatalogue(primary_keys_, table,
                         [&] { return Strings(kPrimaryKey, table); });
}

absl::StatusOr<std::vector<std::string>> PgConnection::TableColumns(
    const std::string& table) {
  return CachedCatalogue(columns_, table,
                         [&] { return Strings(kColumns, table); });
}

absl::Status PgConnection::Begin(const char* sql) {
  // A read-only COMMIT loses nothing when it fails; a broken connection is
  // found and re-opened below.
  DrainPendingCommit().IgnoreError();
  GORANK_RETURN_IF_ERROR(EnsureConnected());
  absl::Status s = Exec(sql);
  if (s.ok() || (conn_ && PQstatus(conn_) == CONNECTION_OK)) return s;
  // The server dropped the connection while it sat idle (a restart, a
  // fail-over): nothing has run yet, so connect again and begin once more.
  session_ready_ = false;
  GORANK_RETURN_IF_ERROR(EnsureConnected());
  return Exec(sql);
}

absl::Status PgConnection::BeginWrite() {
  DrainPendingCommit().IgnoreError();
  GORANK_RETURN_IF_ERROR(EnsureConnected());
  begin_pending_ = PendingBegin::kWrite;  // sent with the first statement
  ForgetTransaction(absl::AbortedError("a new write began"));
  return absl::OkStatus();
}

absl::Status PgConnection::BeginRead() {
  DrainPendingCommit().IgnoreError();
  GORANK_RETURN_IF_ERROR(EnsureConnected());
  in_read_ = true;
  begin_pending_ = PendingBegin::kRead;  // sent with the first statement
  return absl::OkStatus();
}

absl::Status PgConnection::Commit() {
  // A sent statement failed or never ran: the write cannot commit (its
  // caller rolls it back).
  if (!poisoned_.ok()) return std::exchange(poisoned_, absl::OkStatus());
  if (begin_pending_ != PendingBegin::kNone && pending_.empty()) {
    // No statement ran: nothing was begun, nothing is to be made durable.
    begin_pending_ = PendingBegin::kNone;
    in_read_ = false;
    return absl::OkStatus();
  }
  if (in_read_) {
    GORANK_RETURN_IF_ERROR(FlushPending());  // reads sent and never stepped
    in_read_ = false;
    // A read-only transaction has nothing to make durable: do not wait.
    if (conn_ && PQsendQuery(conn_, "COMMIT") == 1) {
      commit_pending_ = true;
      return absl::OkStatus();
    }
  }
  GORANK_RETURN_IF_ERROR(Exec("COMMIT"));
  if (writer_ && ++commits_since_vacuum_ >= kVacuumEvery) {
    commits_since_vacuum_ = 0;
    // Committed already: a failure here costs only the table's size.
    Exec(kVacuumWritten).IgnoreError();
  }
  return absl::OkStatus();
}

void PgConnection::Rollback() {
  in_read_ = false;
  // Nothing to run in a transaction being rolled back.
  ForgetTransaction(absl::AbortedError("the transaction was rolled back"));
  if (begin_pending_ != PendingBegin::kNone) {
    begin_pending_ = PendingBegin::kNone;
    return;
  }
  if (conn_ && PQstatus(conn_) == CONNECTION_OK) Exec("ROLLBACK").IgnoreError();
}

absl::StatusOr<int> PgConnection::ReadSchemaVersion() {
  {
    GORANK_ASSIGN_OR_RETURN(auto has, Prepare(kHasVersion));
    GORANK_ASSIGN_OR_RETURN(bool row, has->Step());
    if (!row || has->Int(0) == 0) return 0;  // an empty database
  }
  GORANK_ASSIGN_OR_RETURN(auto st, Prepare(kReadVersion));
  GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
  return row ? static_cast<int>(st->Int(0)) : 0;
}

absl::Status PgConnection::WriteSchemaVersion(int version) {
  primary_keys_.clear();
  columns_.clear();
  row_reads_.clear();
  // Statements prepared against the old schema are planned again.
  GORANK_RETURN_IF_ERROR(Exec("DEALLOCATE ALL"));
  prepared_.clear();
  GORANK_RETURN_IF_ERROR(Exec(kSchemaVersionTable));
  return Exec(
      "DELETE FROM rankd_schema_version; INSERT INTO rankd_schema_version "
      "VALUES (" +
      std::to_string(version) + ")");
}

// ------------------------------------------------------------ Database

absl::StatusOr<std::unique_ptr<Database>> PgDatabase::Open(
    const std::string& url, const DatabaseOptions& options) {
  std::unique_ptr<PgDatabase> db(new PgDatabase());
  db->url_ = url;
  db->display_ = DisplayAddress(url);
  GORANK_ASSIGN_OR_RETURN(db->writer_, PgConnection::Connect(url, true));
  db->writer_->set_row_digest_key(options.row_digest_key);
  GORANK_RETURN_IF_ERROR(Migrate(*db->writer_, -1, options.schema_only));
  for (int i = 0; i < std::max(1, options.reader_connections); ++i) {
    GORANK_ASSIGN_OR_RETURN(auto reader, PgConnection::Connect(url, false));
    reader->set_row_digest_key(options.row_digest_key);
    db->readers_.Add(std::move(reader));
  }
  if (!options.read_replica.empty())
    GORANK_RETURN_IF_ERROR(db->OpenReadReplica(options));
  return std::unique_ptr<Database>(std::move(db));
}

absl::Status PgDatabase::Write(
    const std::function<absl::Status(Connection&)>& fn) {
  NoteWriteOnThisThread();  // the reads after it see the primary
  GORANK_RETURN_IF_ERROR(write_refusal());
  std::lock_guard<std::mutex> lock(write_mu_);
  GORANK_RETURN_IF_ERROR(RunTransaction(*writer_, /*write=*/true, fn));
  if (own_entries_ != nullptr) {
    std::vector<std::pair<int64_t, std::string>> entries =
        writer_->TakeAuditEntries();
    for (auto& entry : entries) entry.second = audit::HexEncode(entry.second);
    own_entries_->Add(entries);
    own_entries_->SetWriterPid(writer_->BackendPid());
  }
  return absl::OkStatus();
}

int PgConnection::BackendPid() const {
  return conn_ != nullptr ? PQbackendPID(conn_) : 0;
}

void PgDatabase::TrackOwnAuditEntries(OwnAuditEntries* own) {
  std::lock_guard<std::mutex> lock(write_mu_);
  own_entries_ = own;
}

absl::Status PgDatabase::Read(
    const std::function<absl::Status(Connection&)>& fn) {
  if (UseReplica()) return ReadOnReplica(fn);
  PgConnection* c = readers_.Acquire();
  absl::Status s = RunTransaction(*c, /*write=*/false, fn);
  readers_.Release(c);
  return s;
}

absl::Status PgDatabase::Probe() {
  absl::Status s = Read([](Connection& c) { return c.Exec("SELECT 1"); });
  if (s.ok()) return s;
  return absl::Status(s.code(), display_ + ": " + std::string(s.message()));
}

Database::ReaderPoolStats PgDatabase::reader_pool_stats() const {
  return readers_.Stats();
}

absl::Status PgDatabase::BackupTo(const std::string& dest) {
  if (IsPostgresUrl(dest)) {
    return absl::InvalidArgumentError(
        "a backup is written to an SQLite file, not to " + dest);
  }
  GORANK_RETURN_IF_ERROR(CreatePrivateFile(dest));  // 0600, empty
  DatabaseOptions options;
  options.schema_only = true;
  options.reader_connections = 0;
  GORANK_ASSIGN_OR_RETURN(std::unique_ptr<Database> target,
                          SqliteDatabase::Open(dest, options));
  absl::Status s = CopyDatabase(*this, *target).status();
  target.reset();
  if (!s.ok()) ::unlink(dest.c_str());
  return s;
}

}  // namespace gorank::storage
