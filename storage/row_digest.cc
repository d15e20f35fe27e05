#include "storage/row_digest.h"

#include <cstdio>
#include <set>

#include "services/audit/encoding.h"
#include "services/audit/keyed_digest.h"
#include "services/audit/merkle.h"
#include "services/common/status_macros.h"

namespace gorank::storage {
namespace {

// The log and its checkpoints are checked by the Merkle tree, not by row
// digests (a checkpoint written in a change is still digested with it).
bool Digested(const std::string& table) {
  return table != "audit_log" && table != "audit_checkpoints";
}

}  // namespace

std::string QuoteIdentifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

namespace {
// The primary-key columns joined with '/' as an SQL expression.
std::string JoinedKey(const std::vector<std::string>& pk) {
  std::string expr;
  for (const std::string& col : pk) {
    expr += (expr.empty() ? "" : " || '/' || ") + QuoteIdentifier(col);
  }
  return expr;
}
}  // namespace

absl::StatusOr<std::string> KeyExpression(Connection& conn,
                                          const std::string& table) {
  GORANK_ASSIGN_OR_RETURN(std::vector<std::string> pk,
                          conn.PrimaryKeyColumns(table));
  if (pk.empty()) {
    if (conn.engine() == Engine::kSqlite) return std::string("rowid");
    return absl::InternalError("table " + table + " has no primary key");
  }
  return JoinedKey(pk);
}

// Columns 1..n with kind tags and lengths, so no two different rows share
// an encoding.
std::string DigestColumns(const Statement& st, const std::string& key) {
  std::string data;
  for (int i = 1; i < st.ColumnCount(); ++i) {
    const ColumnKind type = st.ColumnType(i);
    std::string value;
    if (type == kColumnInteger) {
      value = std::to_string(st.Int(i));
    } else if (type == kColumnFloat) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", st.Double(i));
      value = buf;
    } else if (type == kColumnText) {
      value = st.Text(i);
    } else if (type == kColumnBlob) {
      value = st.Blob(i);
    }
    data += std::to_string(static_cast<int>(type)) + ":" +
            std::to_string(value.size()) + ":" + value;
  }
  if (key.empty()) return audit::HexEncode(audit::Sha256(data));
  return audit::kKeyedDigestPrefix +
         audit::HexEncode(audit::HmacSha256(key, data));
}

absl::StatusOr<std::map<std::string, std::string>> DigestRowsByRowid(
    Connection& conn, const std::vector<std::pair<std::string, int64_t>>& rows,
    const std::vector<
        std::pair<std::string, std::vector<std::optional<std::string>>>>&
        deleted) {
  std::map<std::string, std::string> out;
  for (const auto& [table, values] : deleted) {
    // The key the row had, from its old values, as KeyExpression joins it.
    GORANK_ASSIGN_OR_RETURN(std::vector<std::string> pk,
                            conn.PrimaryKeyColumns(table));
    GORANK_ASSIGN_OR_RETURN(std::vector<std::string> columns,
                            conn.TableColumns(table));
    std::string key;
    for (const std::string& col : pk) {
      if (!key.empty()) key += "/";
      for (size_t i = 0; i < columns.size() && i < values.size(); ++i) {
        if (columns[i] == col && values[i]) key += *values[i];
      }
    }
    if (!key.empty()) out[table + ":" + key] = kDeletedRow;
  }
  std::set<std::pair<std::string, int64_t>> seen;
  std::map<std::string, std::string> select_of;  // table -> its row's SELECT
  for (const auto& row : rows) {
    if (!seen.insert(row).second) continue;
    auto sql = select_of.find(row.first);
    if (sql == select_of.end()) {
      GORANK_ASSIGN_OR_RETURN(std::string key, KeyExpression(conn, row.first));
      sql = select_of
                .emplace(row.first, "SELECT " + key + ", * FROM " +
                                        QuoteIdentifier(row.first) +
                                        " WHERE rowid = ?1")
                .first;
    }
    GORANK_ASSIGN_OR_RETURN(auto st, conn.Prepare(sql->second.c_str()));
    st->Bind(1, row.second);
    GORANK_ASSIGN_OR_RETURN(bool found, st->Step());
    if (found) {
      out[row.first + ":" + st->Text(0)] =
          DigestColumns(*st, conn.row_digest_key());
    } else {
      // Deleted within the change: the key can no longer be read, so the
      // rowid names it.
      out[row.first + ":rowid/" + std::to_string(row.second)] = kDeletedRow;
    }
  }
  return out;
}

absl::StatusOr<std::map<std::string, std::string>> DigestAllRows(
    Connection& conn) {
  return DigestAllRows(conn, conn.row_digest_key());
}

absl::StatusOr<std::map<std::string, std::string>> DigestAllRows(
    Connection& conn, const std::string& key) {
  GORANK_ASSIGN_OR_RETURN(std::vector<std::string> tables, conn.ListTables());
  std::map<std::string, std::string> out;
  for (const std::string& table : tables) {
    if (!Digested(table)) continue;
    GORANK_ASSIGN_OR_RETURN(std::string key_sql, KeyExpression(conn, table));
    const std::string sql =
        "SELECT " + key_sql + ", * FROM " + QuoteIdentifier(table);
    GORANK_ASSIGN_OR_RETURN(auto st, conn.Prepare(sql.c_str()));
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      out[table + ":" + st->Text(0)] = DigestColumns(*st, key);
    }
  }
  return out;
}

}  // namespace gorank::storage
