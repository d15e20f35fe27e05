// PgDatabase's read replica (pg_database.h, DatabaseOptions::read_replica):
// its reader pool, the check at open and the routing of Read().
#include <algorithm>
#include <chrono>
#include <thread>

#include "services/common/replica_reads.h"
#include "services/common/status_macros.h"
#include "storage/pg_database.h"

namespace gorank::storage {
namespace {

constexpr char kInRecovery[] =
    "SELECT CASE WHEN pg_is_in_recovery() THEN 1 ELSE 0 END";

// How long reads skip the replica after one failed there.
constexpr std::chrono::seconds kReplicaRetry(1);
// How long Open() waits for the replica to replay the primary's schema
// version (a migration the primary ran a moment ago).
constexpr std::chrono::seconds kSchemaWait(10);

int64_t SteadyNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

absl::StatusOr<int> SchemaVersionOn(PgConnection& c) {
  int version = 0;
  GORANK_RETURN_IF_ERROR(
      RunTransaction(c, /*write=*/false, [&](Connection& conn) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(version, conn.ReadSchemaVersion());
        return absl::OkStatus();
      }));
  return version;
}

absl::StatusOr<bool> InRecovery(PgConnection& c) {
  bool standby = false;
  GORANK_RETURN_IF_ERROR(
      RunTransaction(c, /*write=*/false, [&](Connection& conn) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(auto st, conn.Prepare(kInRecovery));
        GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
        standby = row && st->Int(0) == 1;
        return absl::OkStatus();
      }));
  return standby;
}

}  // namespace

absl::Status PgDatabase::OpenReadReplica(const DatabaseOptions& options) {
  const std::string& url = options.read_replica;
  std::vector<std::unique_ptr<PgConnection>> readers;
  for (int i = 0; i < std::max(1, options.reader_connections); ++i) {
    absl::StatusOr<std::unique_ptr<PgConnection>> reader =
        PgConnection::Connect(url, /*writer=*/false);
    if (!reader.ok()) {
      return absl::UnavailableError("read replica: " +
                                    std::string(reader.status().message()));
    }
    (*reader)->set_row_digest_key(options.row_digest_key);
    readers.push_back(std::move(*reader));
  }
  PgConnection* on_primary = readers_.Acquire();
  const absl::StatusOr<int> primary_version = SchemaVersionOn(*on_primary);
  readers_.Release(on_primary);
  GORANK_ASSIGN_OR_RETURN(const int primary, primary_version);
  const auto until = std::chrono::steady_clock::now() + kSchemaWait;
  int replica = 0;
  while (true) {
    GORANK_ASSIGN_OR_RETURN(replica, SchemaVersionOn(*readers.front()));
    if (replica == primary || std::chrono::steady_clock::now() > until) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (replica != primary) {
    return absl::FailedPreconditionError(
        "read replica " + DisplayAddress(url) + " is at schema version " +
        std::to_string(replica) + ", the primary " + display_ + " at " +
        std::to_string(primary) + " (after " +
        std::to_string(kSchemaWait.count()) +
        " s): is it a standby streaming from this primary?");
  }
  GORANK_ASSIGN_OR_RETURN(replica_standby_, InRecovery(*readers.front()));
  for (auto& r : readers) replica_readers_.Add(std::move(r));
  replica_display_ = DisplayAddress(url);
  return absl::OkStatus();
}

bool PgDatabase::UseReplica() const {
  if (replica_display_.empty() || !ReplicaReadsAllowed()) return false;
  const int64_t retry_at = replica_retry_at_ns_.load(std::memory_order_relaxed);
  return retry_at == 0 || SteadyNanos() >= retry_at;
}

absl::Status PgDatabase::ReadOnReplica(
    const std::function<absl::Status(Connection&)>& fn) {
  PgConnection* c = replica_readers_.Acquire();
  absl::Status s = RunTransaction(*c, /*write=*/false, fn);
  replica_readers_.Release(c);
  replica_reads_.fetch_add(1, std::memory_order_relaxed);
  if (!absl::IsUnavailable(s)) {
    if (replica_retry_at_ns_.load(std::memory_order_relaxed) != 0)
      replica_retry_at_ns_.store(0, std::memory_order_relaxed);
    return s;
  }
  // Not run again on the primary: `fn` may have kept part of its rows.
  replica_failures_.fetch_add(1, std::memory_order_relaxed);
  replica_retry_at_ns_.store(
      SteadyNanos() +
          std::chrono::duration_cast<std::chrono::nanoseconds>(kReplicaRetry)
              .count(),
      std::memory_order_relaxed);
  return absl::UnavailableError("read replica " + replica_display_ + ": " +
                                std::string(s.message()));
}

Database::ReplicaStats PgDatabase::replica_stats() const {
  ReplicaStats stats;
  if (replica_display_.empty()) return stats;
  stats.address = replica_display_;
  stats.standby = replica_standby_;
  stats.pool = replica_readers_.Stats();
  stats.reads = replica_reads_.load(std::memory_order_relaxed);
  stats.failures = replica_failures_.load(std::memory_order_relaxed);
  return stats;
}

}  // namespace gorank::storage
