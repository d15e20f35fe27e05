// The schema as an ordered list of numbered migrations. The database's
// PRAGMA user_version is the number of the last one applied; each one runs
// in its own transaction together with the version bump, so a crash leaves
// the schema at a whole version.
#ifndef GORANK_STORAGE_MIGRATIONS_H_
#define GORANK_STORAGE_MIGRATIONS_H_

#include <functional>
#include <vector>

#include "absl/status/status.h"
#include "storage/database.h"

namespace gorank::storage {

struct Migration {
  int version;  // 1, 2, 3, ... without gaps
  const char* description;
  std::function<absl::Status(Connection&)> apply;
};

// Every migration, oldest first. Immutable.
const std::vector<Migration>& Migrations();
int LatestSchemaVersion();

// Applies every migration above the current user_version up to `target`
// (default: the latest). FAILED_PRECONDITION when the database is newer
// than this binary.
absl::Status Migrate(Connection& conn, int target = -1);

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_MIGRATIONS_H_
