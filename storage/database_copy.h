// Copying a whole registry between databases (and engines): every row of
// every table, the audit log and its checkpoints byte for byte, so the log
// verifies against the same checkpoints afterwards. Used by
// `rankd --migrate-to` and by the PostgreSQL engine's backups.
#ifndef GORANK_STORAGE_DATABASE_COPY_H_
#define GORANK_STORAGE_DATABASE_COPY_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "storage/database.h"

namespace gorank::storage {

struct CopyReport {
  int64_t tables = 0;
  int64_t rows = 0;           // every row copied, the audit log's included
  int64_t audit_entries = 0;  // rows of audit_log
  std::string rows_sha256;    // SHA-256 over every row digest, on both sides
};

// Copies everything in `from` (one consistent snapshot) into `to` in one
// transaction. `to` must have the same schema version and no rows at all
// (open it with DatabaseOptions::schema_only): FAILED_PRECONDITION
// otherwise, and `to` is left unchanged. After the copy the row digests of
// both sides are compared (DATA_LOSS, rolled back, if they differ).
absl::StatusOr<CopyReport> CopyDatabase(Database& from, Database& to);

// SHA-256 (hex) over the digest of every row (row_digest.h) and every audit
// log entry of `db`: equal for two databases holding the same registry,
// whatever their engines.
absl::StatusOr<std::string> RegistryFingerprint(Database& db);

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_DATABASE_COPY_H_
