// Restoring a database from a backup file made by `rankctl backup` (an
// SQLite snapshot), and moving a whole registry to another database or
// engine (`rankd --migrate-to`).
#ifndef GORANK_SERVICES_SERVER_RESTORE_H_
#define GORANK_SERVICES_SERVER_RESTORE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "storage/database_copy.h"

namespace gorank::server {

// Checks the backup (it opens, passes PRAGMA integrity_check and its schema
// is one this rankd knows), then copies it to `db_path` through a temporary
// file renamed into place. FAILED_PRECONDITION when `db_path` exists and
// `force` is false (or when a rankd still holds it: its -wal file exists);
// DATA_LOSS when the backup fails the integrity check; NOT_FOUND when it is
// missing; FAILED_PRECONDITION for an auditor's backup (its resident ID
// numbers were removed). Must not run while a server uses `db_path`.
// When `db_path` is a PostgreSQL URL the backup is copied into it as by
// MigrateDatabase (the database must be empty; `force` does not apply).
absl::Status RestoreDatabase(const std::string& backup_path,
                             const std::string& db_path, bool force);

// Copies the whole registry at `from` (an SQLite file or PostgreSQL URL,
// migrated to this rankd's schema first) into `to`: a new SQLite file or an
// empty PostgreSQL database. Every row, the audit log and its checkpoints
// are copied as they are, in one transaction, and compared row digest by
// row digest afterwards, so the log verifies against the same checkpoints.
// FAILED_PRECONDITION when `to` is an existing file or a database holding
// anything; nothing is written then. Must not run while a server writes to
// `from`.
absl::StatusOr<storage::CopyReport> MigrateDatabase(const std::string& from,
                                                    const std::string& to);

}  // namespace gorank::server

#endif  // GORANK_SERVICES_SERVER_RESTORE_H_
