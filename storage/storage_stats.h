// Figures about the stored data that operators watch (the metrics endpoint
// reads them at scrape time). Read-only queries through the reader pool.
#ifndef GORANK_STORAGE_STORAGE_STATS_H_
#define GORANK_STORAGE_STORAGE_STATS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "storage/database.h"

namespace gorank::storage {

// Certificates ever issued and kept on record (revoked ones included: rows
// are never deleted, so the figure only grows, except after a restore from
// an older backup). The database's errors (UNAVAILABLE, DATA_LOSS, ...).
// Thread-safe.
absl::StatusOr<int64_t> CountIssuedCertificates(Database& db);

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_STORAGE_STATS_H_
