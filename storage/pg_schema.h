// The schema on PostgreSQL: the migrations' SQLite DDL translated, and the
// functions and triggers that give PostgreSQL what SQLite does by itself
// (max + 1 row ids, the written-row notes the audit log digests, the
// append-only log, json_valid()).
#ifndef GORANK_STORAGE_PG_SCHEMA_H_
#define GORANK_STORAGE_PG_SCHEMA_H_

#include <string>

#include "absl/status/status.h"
#include "storage/database.h"

namespace gorank::storage {

// The SQLite DDL of a migration step as PostgreSQL DDL: INTEGER -> BIGINT,
// BLOB -> BYTEA, no STRICT, SQLite triggers dropped (the caller adds the
// PostgreSQL ones).
std::string ToPostgresDdl(const std::string& sqlite_ddl);

// The functions and triggers rankd needs on PostgreSQL: json_valid(), the
// append-only audit log, the written-row note and max + 1 ids on every table
// (idempotent; run inside each migration step).
absl::Status InstallPostgresTriggers(Connection& conn);

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_PG_SCHEMA_H_
