// Restoring a database from a backup file made by `rankctl backup` (an
// SQLite snapshot taken with VACUUM INTO).
#ifndef GORANK_SERVICES_SERVER_RESTORE_H_
#define GORANK_SERVICES_SERVER_RESTORE_H_

#include <string>

#include "absl/status/status.h"

namespace gorank::server {

// Checks the backup (it opens, passes PRAGMA integrity_check and its schema
// is one this rankd knows), then copies it to `db_path` through a temporary
// file renamed into place. FAILED_PRECONDITION when `db_path` exists and
// `force` is false (or when a rankd still holds it: its -wal file exists);
// DATA_LOSS when the backup fails the integrity check; NOT_FOUND when it is
// missing. Must not run while a server uses `db_path`.
absl::Status RestoreDatabase(const std::string& backup_path, const std::string& db_path,
                             bool force);

}  // namespace gorank::server

#endif  // GORANK_SERVICES_SERVER_RESTORE_H_
