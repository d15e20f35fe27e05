// Row digests: the SHA-256 of a table row's content, keyed "table:primary
// key". The audit log records the digest of every row a change wrote, so an
// auditor can find rows altered behind the log's back (VerifyTables). The
// encoding depends only on the row's values and their kinds (ColumnKind),
// so the same row has the same digest on SQLite and on PostgreSQL.
#ifndef GORANK_STORAGE_ROW_DIGEST_H_
#define GORANK_STORAGE_ROW_DIGEST_H_

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "storage/database.h"

namespace gorank::storage {

// The digest written for a row that no longer exists.
inline constexpr char kDeletedRow[] = "deleted";

// `name` as a quoted SQL identifier (names come from the catalogue, never
// from a request).
std::string QuoteIdentifier(const std::string& name);

// The SQL expression that names a row of `table`: its primary-key columns
// joined with '/'.
absl::StatusOr<std::string> KeyExpression(Connection& conn,
                                          const std::string& table);

// The digest of the current row of `st`, whose column 0 is the key and
// columns 1..n the row (SELECT <key>, * FROM ...).
std::string DigestColumns(const Statement& st);

// SQLite: "table:key" -> digest for each (table, rowid) written, and
// kDeletedRow for each deleted row, keyed from its old values (`deleted`:
// table and the old column values as text).
absl::StatusOr<std::map<std::string, std::string>> DigestRowsByRowid(
    Connection& conn, const std::vector<std::pair<std::string, int64_t>>& rows,
    const std::vector<
        std::pair<std::string, std::vector<std::optional<std::string>>>>&
        deleted);

// PostgreSQL: the same for rows named by table and primary-key values (as
// text, in key order); a row no longer there is kDeletedRow.
absl::StatusOr<std::map<std::string, std::string>> DigestRowsByKey(
    Connection& conn,
    const std::vector<std::pair<std::string, std::vector<std::string>>>& rows);

// "table:key" -> hex digest of every row of every table except the audit
// log and its checkpoints, read inside the caller's open transaction.
absl::StatusOr<std::map<std::string, std::string>> DigestAllRows(
    Connection& conn);

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_ROW_DIGEST_H_
