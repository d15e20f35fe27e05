// Row digests: the HMAC-SHA256 of a table row's content under the
// connection's row-digest key ("hmac:" + hex; services/audit/keyed_digest.h),
// named "table:primary key". The audit log records the digest of every row
// a change wrote, so rankd can find rows altered behind the log's back
// (VerifyTables) while nobody without the key can test a guess of a row's
// content (e.g. a resident ID number) against a digest. Without a key the
// digest is the plain SHA-256 hex of logs written before keying. The
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
// columns 1..n the row (SELECT <key>, * FROM ...), keyed with `key` ("":
// unkeyed SHA-256).
std::string DigestColumns(const Statement& st, const std::string& key);

// SQLite: "table:key" -> digest for each (table, rowid) written, and
// kDeletedRow for each deleted row, keyed from its old values (`deleted`:
// table and the old column values as text).
absl::StatusOr<std::map<std::string, std::string>> DigestRowsByRowid(
    Connection& conn, const std::vector<std::pair<std::string, int64_t>>& rows,
    const std::vector<
        std::pair<std::string, std::vector<std::optional<std::string>>>>&
        deleted);

// "table:key" -> hex digest of every row of every table except the audit
// log and its checkpoints, read inside the caller's open transaction.
absl::StatusOr<std::map<std::string, std::string>> DigestAllRows(
    Connection& conn);
// The same with `key` instead of the connection's ("" for the unkeyed
// digests old entries recorded).
absl::StatusOr<std::map<std::string, std::string>> DigestAllRows(
    Connection& conn, const std::string& key);

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_ROW_DIGEST_H_
