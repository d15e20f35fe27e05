// The metrics rankd samples at scrape time, beside the per-call ones the
// call gate records: database reader pool, health, certificates on record,
// start time. Kept out of rankd_server.cc so that wiring stays readable.
#ifndef GORANK_SERVICES_SERVER_SERVER_METRICS_H_
#define GORANK_SERVICES_SERVER_SERVER_METRICS_H_

#include "services/common/metrics.h"
#include "services/server/health_monitor.h"

namespace gorank::storage {
class Database;
}

namespace gorank::server {

// Adds to `metrics`:
//   rankd_db_reader_pool_size, rankd_db_reader_pool_in_use (gauges),
//   rankd_db_reader_pool_waits_total (counter),
//   rankd_certificates_issued_total (counter: certificates on record, read
//     from the database at scrape time; left out while it cannot be read),
//   rankd_health_serving (gauge, 1 or 0),
//   process_start_time_seconds (gauge, Unix time of `start_unix_seconds`).
// `db` and `health` are not owned and must outlive every Render().
void AddServerMetrics(Metrics* metrics, storage::Database* db,
                      const HealthMonitor* health, double start_unix_seconds);

}  // namespace gorank::server

#endif  // GORANK_SERVICES_SERVER_SERVER_METRICS_H_
