// The PostgreSQL engine of storage::Database (libpq), for a federation that
// runs several rankd instances on one database server.
//
// - Writes: each process has one writer connection; every write transaction
//   first takes a transaction-scoped advisory lock, so writes are serialised
//   across every instance as SQLite serialises them in one. Counter rows
//   (certificate serials) and max + 1 row ids (a BEFORE INSERT trigger, as
//   SQLite assigns rowids) therefore never leave gaps or collide.
// - Row digests: an AFTER trigger on every table notes the key of each row
//   written in a session temp table; the audit log digests those rows
//   exactly as on SQLite, so the same history gives the same log.
// - Reads: a pool of reader connections, each read one REPEATABLE READ
//   snapshot. Its BEGIN goes to the server with the read's first statement
//   (one libpq pipeline, one round trip), and its COMMIT is sent without
//   waiting: the answer is taken before the connection's next command. A
//   read of one statement costs one round trip, as it would without a
//   transaction.
// - Statements: SELECT, INSERT, UPDATE, DELETE and WITH statements are
//   prepared once per connection (by SQL text and parameter types) and then
//   only executed (a write's lock and clearing too); a reconnect or a schema
//   migration forgets them.
// - Write transactions: the BEGIN, the advisory lock and the clearing of
//   the noted rows go to the server with the transaction's first statement
//   (one pipeline), as a read's BEGIN does; a write that runs nothing sends
//   nothing. Likewise a SAVEPOINT or RELEASE SAVEPOINT (group commit's
//   savepoints) goes with the statement after it; a failed one fails that
//   statement. Statements sent with Statement::Send() wait in the same queue
//   and go in front of the next statement or command (the COMMIT, say):
//   a group commit's issuances send the reads of every waiting call in one
//   round trip and their writes with their audit entries' reads in the
//   next (sql_certificate_repository.cc). A sent statement that fails (or never
//   runs: the statement that was to carry it could not be prepared) fails the
//   statement that carried it, and the write can then no longer commit.
// - Outages: a connection that broke (server stopped or restarted) is
//   re-opened at its next use; until the server answers, calls fail with
//   UNAVAILABLE.
// - Read replica (DatabaseOptions::read_replica, a hot standby of the
//   primary): a second pool of reader connections to it serves Read() while
//   ReplicaReadsAllowed() (services/common/replica_reads.h) on the calling
//   thread; writes, the reads inside them and every other read stay on the
//   primary. A replica read that fails with UNAVAILABLE is returned as such
//   and sends the reads of the next second to the primary (then the replica
//   is tried again): a replica outage costs one failed read, not a refusal
//   of every public read. pg_read_replica.cc.
#ifndef GORANK_STORAGE_PG_DATABASE_H_
#define GORANK_STORAGE_PG_DATABASE_H_

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "storage/database.h"
#include "storage/reader_pool.h"

struct pg_conn;
struct pg_result;

namespace gorank::storage {

class PgConnection;
class PgStatement;

// A command waiting for its connection's next round trip: a command without
// parameters (a savepoint's), or a statement Send() queued.
struct PgPendingCommand {
  std::string text;                  // the command; "" for a statement
  const std::string* sql = nullptr;  // the statement ($N form; the
                                     // connection owns it)
  std::vector<std::optional<std::string>> values;
  std::vector<int> formats;
  std::vector<unsigned> types;
  PgStatement* owner = nullptr;  // takes the answer; null once it is gone
};

class PgStatement : public Statement {
 public:
  PgStatement(PgConnection* conn, const std::string* sql)
      : conn_(conn), sql_(sql) {}
  PgStatement(const PgStatement&) = delete;
  PgStatement& operator=(const PgStatement&) = delete;
  ~PgStatement() override;

  Statement& Bind(int index, int64_t value) override;
  Statement& Bind(int index, const std::string& value) override;
  using Statement::Bind;
  Statement& BindBlob(int index, const std::string& bytes) override;
  Statement& BindNull(int index) override;
  // Takes `result` (of a query the connection ran) as this statement's
  // answer: Step() walks its rows, nothing is sent.
  void Adopt(pg_result* result);
  // A sent statement that got no answer: Step() returns `error`.
  void Fail(absl::Status error);
  absl::StatusOr<bool> Step() override;
  absl::Status Send() override;
  int ColumnCount() const override;
  ColumnKind ColumnType(int col) const override;
  double Double(int col) const override;
  int64_t Int(int col) const override;
  std::string Text(int col) const override;
  std::string Blob(int col) const override;

 private:
  struct Param {
    std::optional<std::string> value;
    unsigned type = 0;  // an OID; 0 lets the server infer it
    int format = 0;     // 0 text, 1 binary
  };
  Param& At(int index);

  PgConnection* conn_;
  bool queued_ = false;      // sent, waiting for the next round trip
  absl::Status send_error_;  // sent, and no answer came (Fail())
  const std::string*
      sql_;  // translated to $N parameters; owned by the connection
  std::vector<Param> params_;
  pg_result* result_ = nullptr;
  int row_ = -1;
  int rows_ = 0;
};

class PgConnection : public Connection {
 public:
  // Connects; UNAVAILABLE when the server cannot be reached.
  static absl::StatusOr<std::unique_ptr<PgConnection>> Connect(
      const std::string& url, bool writer);
  ~PgConnection() override;
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  Engine engine() const override { return Engine::kPostgres; }
  // The server process serving this connection (0 when not connected).
  int BackendPid() const;
  absl::StatusOr<std::unique_ptr<Statement>> Prepare(const char* sql) override;
  absl::Status Exec(const std::string& sql) override;
  int64_t LastInsertRowId() override;
  int64_t Changes() const override { return changes_; }
  absl::StatusOr<std::unique_ptr<WrittenRowReads>> SendWrittenRowReads()
      override;
  void ExpectWrittenRow(const std::string& table,
                        std::vector<std::string> key) override {
    expected_rows_.emplace_back(table, std::move(key));
  }
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

  // Re-opens a broken connection; UNAVAILABLE while the server is away.
  absl::Status EnsureConnected();
  // Runs `sql` with parameters (used by PgStatement), after the pending
  // commands in the same round trip; takes the result. With `sql` null,
  // sends only the pending commands (nothing pending: nothing is sent) and
  // returns null.
  absl::StatusOr<pg_result*> Execute(const std::string* sql,
                                     const std::vector<const char*>& values,
                                     const std::vector<int>& lengths,
                                     const std::vector<int>& formats,
                                     const std::vector<unsigned>& types);
  // A statement Send() queued for the next round trip; Forget(): it is gone
  // before that (its command still runs, its answer is dropped).
  void Queue(PgPendingCommand command) {
    pending_.push_back(std::move(command));
  }
  void Forget(const PgStatement* owner);
  // Sends the pending commands (and a pending BEGIN) now: one round trip.
  absl::Status FlushPending();

 private:
  PgConnection(std::string url, bool writer)
      : url_(std::move(url)), writer_(writer) {}
  absl::Status SetUpSession();
  // Runs `sql` (a BEGIN), connecting again first when the connection broke.
  absl::Status Begin(const char* sql);
  absl::Status ErrorOf(pg_result* result, const std::string& what);
  absl::StatusOr<std::vector<std::string>> Strings(const char* sql,
                                                   const std::string& arg);
  // The prepared statement of `sql` with these parameter types (prepared on
  // first use); its name.
  absl::StatusOr<const std::string*> PreparedName(
      const std::string& sql, const std::vector<unsigned>& types);
  // A transaction begun by BeginRead()/BeginWrite() whose BEGIN is not sent
  // yet.
  enum class PendingBegin { kNone, kRead, kWrite };
  // One try of Execute(); with `begin`, that transaction's BEGIN is sent
  // first in the same pipeline, then the `pending` commands, then `sql`
  // (when not null).
  absl::StatusOr<pg_result*> ExecuteOnce(
      const std::string* sql, const std::vector<const char*>& values,
      const std::vector<int>& lengths, const std::vector<int>& formats,
      const std::vector<unsigned>& types, PendingBegin begin,
      const std::vector<PgPendingCommand>& pending);
  // The transaction ends unfinished: drops the pending commands unsent
  // (statements waiting for them get `why`), the failure mark and the
  // hinted rows.
  void ForgetTransaction(const absl::Status& why);
  using RowKey = std::pair<std::string, std::vector<std::string>>;
  class SentRowReads;
  // The read of `row` (SELECT key, * ... WHERE its key), sent
  // (Statement::Send).
  absl::StatusOr<std::unique_ptr<Statement>> SendRowRead(const RowKey& row);
  // The digests of `rows` (table, key values; a row no longer there is
  // kDeletedRow), with every row's SELECT sent in one pipeline: one round
  // trip.
  // `ahead`: reads sent already (by "table:k1/k2"), used where they match.
  absl::StatusOr<std::map<std::string, std::string>> DigestRowsPipelined(
      const std::vector<RowKey>& rows,
      std::map<std::string, std::unique_ptr<Statement>> ahead = {});
  // Takes the answer of a COMMIT sent without waiting (see the top).
  absl::Status DrainPendingCommit();
  // Sends the pending BEGIN now, in front of `sql` (simple-query text run
  // with it in one round trip; may be empty).
  absl::Status FlushBegin(const std::string& sql);

  std::string url_;
  bool writer_;
  pg_conn* conn_ = nullptr;
  bool session_ready_ = false;
  int64_t changes_ = 0;
  std::map<std::string, std::string> translated_;  // SQL text -> $N form
  // SQL text and parameter types -> the name it is prepared under.
  std::map<std::string, std::string> prepared_;
  bool in_read_ = false;  // between BeginRead() and its end
  PendingBegin begin_pending_ = PendingBegin::kNone;  // nothing sent yet
  int commits_since_vacuum_ = 0;  // write commits since the last VACUUM
  bool commit_pending_ = false;   // a COMMIT's answer not taken yet
  // Savepoint commands Exec() deferred and statements Send() queued, in
  // their order: they go to the server in front of the next statement or
  // command, in its round trip.
  std::vector<PgPendingCommand> pending_;
  // A sent statement failed: the write transaction cannot commit.
  absl::Status poisoned_;
  // ExpectWrittenRow()'s rows, for the next SendWrittenRowReads().
  std::vector<RowKey> expected_rows_;
  CatalogueCache primary_keys_;
  CatalogueCache columns_;
  // SendRowRead's statement for each table, built at its first use.
  struct RowRead {
    size_t key_columns = 0;
    std::string sql;  // SELECT key, * FROM table WHERE k1 = ?1 AND ...
  };
  std::map<std::string, RowRead> row_reads_;
};

class PgDatabase : public Database {
 public:
  static absl::StatusOr<std::unique_ptr<Database>> Open(
      const std::string& url, const DatabaseOptions& options);
  ~PgDatabase() override = default;

  Engine engine() const override { return Engine::kPostgres; }
  absl::Status Write(
      const std::function<absl::Status(Connection&)>& fn) override;
  absl::Status Read(
      const std::function<absl::Status(Connection&)>& fn) override;
  absl::StatusOr<std::string> IntegrityCheck() override {
    return std::string("ok");
  }
  absl::Status BackupTo(const std::string& dest) override;
  std::string path() const override { return display_; }
  absl::Status Probe() override;
  ReaderPoolStats reader_pool_stats() const override;
  ReplicaStats replica_stats() const override;
  void TrackOwnAuditEntries(OwnAuditEntries* own) override;

 private:
  PgDatabase() = default;
  // Connects the replica's readers and checks that the replica answers with
  // this binary's schema version (waiting a few seconds for a migration the
  // primary just ran to be replayed). UNAVAILABLE when it cannot be reached;
  // FAILED_PRECONDITION when its schema version stays another than the
  // primary's.
  absl::Status OpenReadReplica(const DatabaseOptions& options);
  // True when this Read() goes to the replica.
  bool UseReplica() const;
  absl::Status ReadOnReplica(
      const std::function<absl::Status(Connection&)>& fn);

  std::string url_;
  std::string display_;  // url_ with any password masked
  std::mutex write_mu_;
  std::unique_ptr<PgConnection> writer_;
  OwnAuditEntries* own_entries_ = nullptr;  // guarded by write_mu_
  ReaderPool<PgConnection> readers_;
  // The read replica (none when replica_display_ is empty).
  std::string replica_display_;
  bool replica_standby_ = false;  // in recovery when it was opened
  ReaderPool<PgConnection> replica_readers_;
  std::atomic<int64_t> replica_reads_{0};
  std::atomic<int64_t> replica_failures_{0};
  // steady_clock nanoseconds before which reads skip the replica (after a
  // failure); 0: use it.
  std::atomic<int64_t> replica_retry_at_ns_{0};
};

// `?N` and `?` parameters as PostgreSQL's `$N` (quoted text left alone).
std::string ToPostgresParameters(const std::string& sql);

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_PG_DATABASE_H_
