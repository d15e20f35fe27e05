// Row digests: the SHA-256 of a table row's content, keyed "table:primary
// key". The audit log records the digest of every row a change wrote, so an
// auditor can find rows altered behind the log's back (VerifyTables).
#ifndef GORANK_STORAGE_ROW_DIGEST_H_
#define GORANK_STORAGE_ROW_DIGEST_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "storage/database.h"

namespace gorank::storage {

// The digest written for a row that no longer exists.
inline constexpr char kDeletedRow[] = "deleted";

// "table:key" -> hex digest for each (table, rowid), read inside the
// caller's open transaction.
// Rows deleted by the change (`deleted`) are keyed from their old values
// and recorded as kDeletedRow.
absl::StatusOr<std::map<std::string, std::string>> DigestRows(
    Connection& conn, const std::vector<std::pair<std::string, int64_t>>& rows,
    const std::vector<Connection::DeletedRow>& deleted = {});

// "table:key" -> hex digest of every row of every table except the audit
// log and SQLite's own, read inside the caller's open transaction.
absl::StatusOr<std::map<std::string, std::string>> DigestAllRows(Connection& conn);

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_ROW_DIGEST_H_
