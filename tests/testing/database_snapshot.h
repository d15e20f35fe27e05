// Reading a database (SQLite or PostgreSQL) the way tests need: a snapshot of
// every registry table (row counts and full contents) to prove that a refused
// call changed nothing, and the audit log decoded back into ChangeRecords.
#ifndef GORANK_TESTS_TESTING_DATABASE_SNAPSHOT_H_
#define GORANK_TESTS_TESTING_DATABASE_SNAPSHOT_H_

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/audit/audit_entry.h"
#include "services/common/change.h"
#include "storage/database.h"

namespace gorank::testing {

struct TableSnapshot {
  int64_t rows = 0;
  std::string contents;  // every row, quoted values, in key order
  bool operator==(const TableSnapshot&) const = default;
};

// agencies, players, rank_history, tokens, audit_log.
struct DatabaseSnapshot {
  std::map<std::string, TableSnapshot> tables;
  bool operator==(const DatabaseSnapshot&) const = default;
  int64_t Rows(const std::string& table) const;
};

// For readable gtest failures: the row count of each table.
void PrintTo(const DatabaseSnapshot& s, std::ostream* os);

// Reads every table in one read transaction.
absl::StatusOr<DatabaseSnapshot> TakeSnapshot(storage::Database* db);

// SELECT count(*) FROM audit_log.
absl::StatusOr<int64_t> CountAuditRows(storage::Database* db);

// The audit log decoded, oldest first.
absl::StatusOr<std::vector<ChangeRecord>> ReadAuditLog(storage::Database* db);

// The audit log's entries after the one numbered `after_seq` (0: every
// entry), decoded whole (rows included, audit::AuditEntry::Decode), oldest
// first.
absl::StatusOr<std::vector<audit::AuditEntry>> ReadAuditEntries(
    storage::Database* db, int64_t after_seq = 0);

}  // namespace gorank::testing

#endif  // GORANK_TESTS_TESTING_DATABASE_SNAPSHOT_H_
