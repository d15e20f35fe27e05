#include "services/server/server_metrics.h"

#include "storage/database.h"
#include "storage/storage_stats.h"

namespace gorank::server {

void AddServerMetrics(Metrics* metrics, storage::Database* db,
                      const HealthMonitor* health, double start_unix_seconds) {
  using Type = Metrics::Type;
  metrics->AddSampled(
      "rankd_db_reader_pool_size",
      "Read-only database connections in the pool.", Type::kGauge,
      [db]() -> std::optional<double> { return db->reader_pool_stats().size; });
  metrics->AddSampled(
      "rankd_db_reader_pool_in_use",
      "Read-only database connections lent to a read right now.", Type::kGauge,
      [db]() -> std::optional<double> {
        return db->reader_pool_stats().in_use;
      });
  metrics->AddSampled(
      "rankd_db_reader_pool_waits_total",
      "Reads that waited for a free read-only connection.", Type::kCounter,
      [db]() -> std::optional<double> {
        return static_cast<double>(db->reader_pool_stats().waits);
      });
  // The read replica's (nothing sampled without one).
  auto replica = [db](auto value) {
    return [db, value]() -> std::optional<double> {
      const storage::Database::ReplicaStats r = db->replica_stats();
      if (r.address.empty()) return std::nullopt;
      return static_cast<double>(value(r));
    };
  };
  metrics->AddSampled("rankd_db_replica_reads_total",
                      "Reads served by the read replica (db_read_replica).",
                      Type::kCounter,
                      replica([](const auto& r) { return r.reads; }));
  metrics->AddSampled(
      "rankd_db_replica_failures_total",
      "Reads on the read replica that failed UNAVAILABLE (the next second's "
      "went to the primary).",
      Type::kCounter, replica([](const auto& r) { return r.failures; }));
  metrics->AddSampled("rankd_db_replica_pool_in_use",
                      "Read replica connections lent to a read right now.",
                      Type::kGauge,
                      replica([](const auto& r) { return r.pool.in_use; }));
  metrics->AddSampled(
      "rankd_certificates_issued_total",
      "Certificates on record (revoked ones included), read from the database.",
      Type::kCounter, [db]() -> std::optional<double> {
        absl::StatusOr<int64_t> n = storage::CountIssuedCertificates(*db);
        if (!n.ok()) return std::nullopt;
        return static_cast<double>(*n);
      });
  metrics->AddSampled(
      "rankd_health_serving",
      "1 while the storage probe succeeds (gRPC health SERVING), else 0.",
      Type::kGauge, [health]() -> std::optional<double> {
        return health->serving() ? 1 : 0;
      });
  metrics->AddSampled("process_start_time_seconds",
                      "Start time of the server since the Unix epoch, seconds.",
                      Type::kGauge,
                      [start_unix_seconds]() -> std::optional<double> {
                        return start_unix_seconds;
                      });
}

}  // namespace gorank::server
