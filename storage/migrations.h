// The schema as one ordered list of numbered migrations for both engines.
// The database's schema version (SQLite: PRAGMA user_version; PostgreSQL:
// the rankd_schema_version table) is the number of the last one applied; each
// one runs in its own transaction together with the version bump, so a crash
// leaves the schema at a whole version.
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
  // Runs inside the step's write transaction; the SQL is SQLite's,
  // ApplyDdl() translates it for PostgreSQL.
  std::function<absl::Status(Connection&)> apply;
  // The step loads data rather than shaping the schema (skipped when a
  // database is migrated schema-only, as a copy target).
  bool loads_data = false;
};

// Every migration, oldest first. Immutable.
const std::vector<Migration>& Migrations();
int LatestSchemaVersion();

// Applies every migration above the current schema version up to `target`
// (default: the latest), each in its own write transaction (on PostgreSQL
// under the lock every writer takes, so instances starting together migrate
// once). `schema_only` skips the steps that load data. FAILED_PRECONDITION
// when the database is newer than this binary.
absl::Status Migrate(Connection& conn, int target = -1,
                     bool schema_only = false);

// Runs schema DDL written for SQLite on `conn`'s engine.
absl::Status ApplyDdl(Connection& conn, const char* sqlite_ddl);

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_MIGRATIONS_H_
