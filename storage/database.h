// Database: the store behind every repository, on one of two engines —
// SQLite (a file; the embedded default) or PostgreSQL (a server, shared by
// several rankd instances) — chosen by the address given to Open(). Both
// offer the same small statement API, report errors as absl::Status, apply
// the same numbered migrations and record, for the audit log, the digest of
// every row a transaction wrote. All SQL of the product lives in storage/ and
// is written once: `?N` parameters and SQL that both engines read alike.
//
// Writes are serialised: one writer connection per process, and on
// PostgreSQL a transaction-scoped advisory lock across processes, so a
// counter row read and bumped in a write transaction (certificate serials,
// row ids, the audit log's sequence) never has two writers.
#ifndef GORANK_STORAGE_DATABASE_H_
#define GORANK_STORAGE_DATABASE_H_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace gorank::storage {

class OwnAuditEntries;

enum class Engine { kSqlite, kPostgres };

// The type of a result column's value; the numbers are SQLite's, and row
// digests (row_digest.h) encode them, so they must never change.
enum ColumnKind : int {
  kColumnInteger = 1,
  kColumnFloat = 2,
  kColumnText = 3,
  kColumnBlob = 4,
  kColumnNull = 5,
};

// A prepared statement, owned by one transaction; not thread-safe.
class Statement {
 public:
  virtual ~Statement() = default;

  // Parameters are 1-based (`?1` in the SQL).
  virtual Statement& Bind(int index, int64_t value) = 0;
  virtual Statement& Bind(int index, const std::string& value) = 0;
  virtual Statement& BindBlob(int index, const std::string& bytes) = 0;
  virtual Statement& BindNull(int index) = 0;
  Statement& Bind(int index, const std::optional<int64_t>& value) {
    return value ? Bind(index, *value) : BindNull(index);
  }
  Statement& Bind(int index, const std::optional<std::string>& value) {
    return value ? Bind(index, *value) : BindNull(index);
  }

  // Advances: true when a row is available, false when done. Constraint
  // violations come back as ALREADY_EXISTS (UNIQUE) or FAILED_PRECONDITION
  // (other constraints); a busy or unreachable database as UNAVAILABLE;
  // anything else INTERNAL.
  virtual absl::StatusOr<bool> Step() = 0;
  // Step() until done; for statements without rows.
  absl::Status Run();
  // Starts the statement without waiting for its answer where the engine
  // can: PostgreSQL sends it with the connection's next round trip, in
  // front of the statement or command that makes one (one libpq pipeline);
  // SQLite runs it now, to its first row. Step() then reads its rows as
  // usual; a statement sent and never stepped has run all the same. On
  // PostgreSQL its failure comes back from the statement that carried it
  // (and every later one), and the transaction can no longer commit: send
  // only statements whose failure is an error of the whole write, never an
  // answer to a caller (refusals are judged from rows, not from errors).
  virtual absl::Status Send() = 0;

  virtual int ColumnCount() const = 0;
  virtual ColumnKind ColumnType(int col) const = 0;
  virtual double Double(int col) const = 0;
  virtual int64_t Int(int col) const = 0;
  virtual std::string Text(int col) const = 0;
  virtual std::string Blob(int col) const = 0;
  bool IsNull(int col) const { return ColumnType(col) == kColumnNull; }
  std::optional<int64_t> OptInt(int col) const {
    if (IsNull(col)) return std::nullopt;
    return Int(col);
  }
  std::optional<std::string> OptText(int col) const {
    if (IsNull(col)) return std::nullopt;
    return Text(col);
  }
};

// One connection. Not thread-safe: the Database hands it to one
// transaction at a time.
class Connection {
 public:
  virtual ~Connection() = default;
  virtual Engine engine() const = 0;

  // `sql` must be a string literal or otherwise outlive the connection:
  // statement caches are keyed by its text.
  virtual absl::StatusOr<std::unique_ptr<Statement>> Prepare(
      const char* sql) = 0;
  // Runs one or more statements without parameters or results.
  virtual absl::Status Exec(const std::string& sql) = 0;
  // The id given to the row the last INSERT created in a table whose key is
  // one integer column (SQLite's rowid; assigned as max + 1 on both).
  virtual int64_t LastInsertRowId() = 0;
  // Rows changed by the last INSERT/UPDATE/DELETE.
  virtual int64_t Changes() const = 0;

  // The secret that keys row digests and the audit log's entry links
  // (DatabaseOptions::row_digest_key; "" = unkeyed, as before keying).
  const std::string& row_digest_key() const { return row_digest_key_; }
  void set_row_digest_key(std::string key) { row_digest_key_ = std::move(key); }

  // The digests of the rows written so far, asked for now and taken later
  // (Take(), once): SendWrittenRowReads().
  class WrittenRowReads {
   public:
    virtual ~WrittenRowReads() = default;
    // "table:key" -> hex SHA-256 of every row written (inserted, updated or
    // deleted: row_digest.h) since the transaction began or the last
    // SendWrittenRowReads(). With `hinted_only`, a written row that was not
    // hinted (ExpectWrittenRow) is ABORTED instead of read: on PostgreSQL
    // such a row is read when Take() runs, after every statement sent
    // since, which may have written it again.
    virtual absl::StatusOr<std::map<std::string, std::string>> Take(
        bool hinted_only) = 0;
  };
  // Asks for the written rows' digests: SQLite digests them now;
  // PostgreSQL, which reads the rows back, sends the hinted rows' reads
  // and the list of written rows (Statement::Send), and what is sent
  // after them runs after them, in the same round trip (a group commit's
  // next issuances, sql_certificate_repository).
  virtual absl::StatusOr<std::unique_ptr<WrittenRowReads>>
  SendWrittenRowReads() = 0;
  // Both halves at once.
  absl::StatusOr<std::map<std::string, std::string>> TakeWrittenRowDigests();
  // A hint for the next SendWrittenRowReads(): `table`'s row with these
  // key values (text, in key order, as the row's key reads) is among the
  // rows written. PostgreSQL, which reads the written rows back, then sends
  // that row's read in the round trip that fetches the list of written
  // rows instead of one after it. The digests are the same with or without
  // the hint, and a row hinted but not written is not digested.
  virtual void ExpectWrittenRow(const std::string& table,
                                std::vector<std::string> key) {
    (void)table;
    (void)key;
  }

  // Catalogue, for digests and copies: the product's tables (not the
  // engine's own, not the schema version), by name.
  virtual absl::StatusOr<std::vector<std::string>> ListTables() = 0;
  // The primary-key columns of `table`, in key order.
  virtual absl::StatusOr<std::vector<std::string>> PrimaryKeyColumns(
      const std::string& table) = 0;
  // Every column of `table`, in declaration order.
  virtual absl::StatusOr<std::vector<std::string>> TableColumns(
      const std::string& table) = 0;

  // The audit entries appended in the current write transaction:
  // AppendAudit notes each (its seq and leaf hash); RunTransaction forgets
  // them when a write begins; the PostgreSQL engine hands a committed
  // transaction's to its OwnAuditEntries (own_audit_entries.h).
  void NoteAuditEntry(int64_t seq, std::string leaf_hash) {
    audit_entries_.emplace_back(seq, std::move(leaf_hash));
  }
  std::vector<std::pair<int64_t, std::string>> TakeAuditEntries() {
    return std::exchange(audit_entries_, {});
  }
  // The last audit entry appended in the current write transaction and
  // still in it (seq, leaf hash): AppendAudit links the next entry to it
  // without reading the log (the write lock keeps other writers out).
  // RunTransaction forgets it when a transaction begins, RollbackTo when a
  // savepoint is rolled back.
  const std::optional<std::pair<int64_t, std::string>>& audit_tip() const {
    return audit_tip_;
  }
  void set_audit_tip(int64_t seq, std::string leaf_hash) {
    audit_tip_.emplace(seq, std::move(leaf_hash));
  }
  void ForgetAuditTip() { audit_tip_.reset(); }

  // ROLLBACK TO SAVEPOINT `name`, inside a write: what the transaction
  // wrote since then is gone, and so are the digests of the rows it wrote
  // and the audit tip (the next audit entry records neither).
  absl::Status RollbackTo(const std::string& name);

  // Transactions; the Database drives them.
  virtual absl::Status BeginWrite() = 0;
  virtual absl::Status BeginRead() = 0;
  virtual absl::Status Commit() = 0;
  virtual void Rollback() = 0;

  // The schema version (0 for an empty database) and setting it, inside a
  // write transaction.
  virtual absl::StatusOr<int> ReadSchemaVersion() = 0;
  virtual absl::Status WriteSchemaVersion(int version) = 0;

 private:
  std::string row_digest_key_;
  std::vector<std::pair<int64_t, std::string>> audit_entries_;
  std::optional<std::pair<int64_t, std::string>> audit_tip_;
};

// Runs `fn` on `c` between BeginWrite() (or BeginRead()) and Commit(),
// rolling back when `fn` or the commit fails. Both engines' Database
// implementations and the migrations drive their transactions with it.
absl::Status RunTransaction(Connection& c, bool write,
                            const std::function<absl::Status(Connection&)>& fn);

struct DatabaseOptions {
  int reader_connections = 4;
  int busy_timeout_ms = 5000;
  // Runs PRAGMA integrity_check at open (quick_check when false; SQLite).
  bool full_integrity_check = true;
  // Migrates without the steps that load data (the region table): an empty
  // schema for CopyDatabase() to fill.
  bool schema_only = false;
  // Keys every row digest and entry link the audit log records (HMAC-SHA256,
  // services/audit/keyed_digest.h). rankd derives it from its audit signing
  // key; it is never stored in the database. "" writes the unkeyed SHA-256
  // digests of logs made before keying (tests and copies that add no entry).
  std::string row_digest_key;
  // PostgreSQL only: the URL of a read replica (a hot standby streaming from
  // the primary) that serves the reads allowed on it
  // (services/common/replica_reads.h), with reader_connections connections
  // of its own. "" (the default): every read on the primary. Open() of an
  // SQLite database with one: INVALID_ARGUMENT.
  std::string read_replica;
};

// The engines' catalogue caches (PrimaryKeyColumns, TableColumns): the
// answer kept in `cache` for `table`, else what `load` reads, kept when not
// empty (an unknown table may be created later; DDL clears the caches).
using CatalogueCache = std::map<std::string, std::vector<std::string>>;
absl::StatusOr<std::vector<std::string>> CachedCatalogue(
    CatalogueCache& cache, const std::string& table,
    const std::function<absl::StatusOr<std::vector<std::string>>()>& load);

// `sql` split at ';' into its statements (leading spaces trimmed) when
// every one of them starts with one of `verbs`; empty otherwise. For the
// engines' handling of transaction-control text (savepoints, BEGIN,
// COMMIT), which holds no quoted ';'.
std::vector<std::string> SplitWhenAllStartWith(
    const std::string& sql, std::initializer_list<const char*> verbs);

// True for "postgresql://..." and "postgres://..." addresses. (Inline: the
// configuration code uses it without linking the storage library.)
inline bool IsPostgresUrl(const std::string& address) {
  return address.rfind("postgresql://", 0) == 0 ||
         address.rfind("postgres://", 0) == 0;
}
// `address` fit for a log line: a password in a URL is masked.
std::string DisplayAddress(const std::string& address);

// Thread-safe.
class Database {
 public:
  // Opens and migrates the database at `address`: an SQLite file path
  // (created if needed) or a PostgreSQL URL. UNAVAILABLE when it cannot be
  // opened or reached; DATA_LOSS when the integrity check fails;
  // FAILED_PRECONDITION when its schema is newer than this binary knows.
  // With options.read_replica: also UNAVAILABLE when the replica cannot be
  // reached, FAILED_PRECONDITION when its schema version is not the
  // primary's, INVALID_ARGUMENT for a replica of an SQLite database or a
  // replica address that is not a PostgreSQL URL.
  static absl::StatusOr<std::unique_ptr<Database>> Open(
      const std::string& address, const DatabaseOptions& options = {});
  virtual ~Database() = default;

  virtual Engine engine() const = 0;

  // Runs `fn` in a write transaction (committed when `fn` succeeds, rolled
  // back otherwise). Writes are serialised (see the top of this file).
  // UNAVAILABLE, without running `fn`, when the database cannot take
  // writes (SQLite: its file was moved, replaced or deleted since Open();
  // PostgreSQL: the server is unreachable).
  virtual absl::Status Write(
      const std::function<absl::Status(Connection&)>& fn) = 0;
  // Hands the audit entries of every write committed from now on to `own`
  // (which must outlive the writes), for this process's public index
  // follower; only PostgreSQL has a follower, other engines ignore it.
  virtual void TrackOwnAuditEntries(OwnAuditEntries* own) { (void)own; }
  // Runs `fn` in a read transaction (one consistent snapshot).
  virtual absl::Status Read(
      const std::function<absl::Status(Connection&)>& fn) = 0;

  absl::StatusOr<int> SchemaVersion();
  // "ok" or the problems the engine's own check reports.
  virtual absl::StatusOr<std::string> IntegrityCheck() = 0;
  // A consistent snapshot into a new SQLite file. FAILED_PRECONDITION when
  // `dest` exists.
  virtual absl::Status BackupTo(const std::string& dest) = 0;
  // The address given to Open(), for logs (a PostgreSQL password is
  // masked).
  virtual std::string path() const = 0;

  // A cheap real read (the health probe). OK when the database answers;
  // UNAVAILABLE when it cannot be reached or (SQLite) its file was moved,
  // replaced or deleted since Open(); DATA_LOSS when SQLite finds the file
  // corrupt. Blocks while every reader is busy.
  virtual absl::Status Probe() = 0;

  struct ReaderPoolStats {
    int size = 0;       // reader connections (0 for ":memory:")
    int in_use = 0;     // currently lent to a read
    int64_t waits = 0;  // reads that had to wait for a free reader, ever
  };
  virtual ReaderPoolStats reader_pool_stats() const = 0;

  // The read replica (DatabaseOptions::read_replica) and its use since
  // Open(); all empty and zero without one.
  struct ReplicaStats {
    std::string address;   // as path() shows addresses; "" without a replica
    bool standby = false;  // in recovery (a hot standby) when it was opened
    ReaderPoolStats pool;
    int64_t reads = 0;     // reads it served (failed ones included)
    int64_t failures = 0;  // of those, UNAVAILABLE (the next second's reads
                           // then went to the primary)
  };
  virtual ReplicaStats replica_stats() const { return {}; }

  // From now on every Write() returns `why` (not OK) without running its
  // function; reads go on. rankd refuses writes this way while its audit
  // log fails the check against its own newest checkpoint. Thread-safe.
  void RefuseWrites(absl::Status why);
  // OK, or the status given to RefuseWrites().
  absl::Status write_refusal() const;

 private:
  mutable std::mutex refusal_mu_;
  absl::Status refusal_;  // guarded by refusal_mu_
};

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_DATABASE_H_
