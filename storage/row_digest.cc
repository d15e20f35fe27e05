#include "storage/row_digest.h"

#include <sqlite3.h>

#include <cstring>

#include "services/audit/encoding.h"
#include "services/audit/merkle.h"
#include "services/common/status_macros.h"

namespace gorank::storage {
namespace {

constexpr char kListTables[] =
    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
    "AND name NOT IN ('audit_log', 'audit_checkpoints') ORDER BY name";

// Names come from SQLite's own schema, never from a request; quoting keeps
// any name a valid identifier.
std::string Quote(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

struct KeyColumn {
  int64_t index;     // position in the table's column list
  std::string name;
};

// The primary-key columns of `table` in key order; empty for a table
// without a declared key.
absl::StatusOr<std::vector<KeyColumn>> PrimaryKeyColumns(Connection& conn,
                                                         const std::string& table) {
  GORANK_ASSIGN_OR_RETURN(auto st,
                          conn.Prepare("SELECT cid, name, pk FROM pragma_table_info(?1)"));
  st->Bind(1, table);
  std::map<int64_t, KeyColumn> by_order;
  while (true) {
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) break;
    if (st->Int(2) > 0) by_order[st->Int(2)] = KeyColumn{st->Int(0), st->Text(1)};
  }
  std::vector<KeyColumn> out;
  for (auto& [order, column] : by_order) out.push_back(std::move(column));
  return out;
}

// The SQL expression that names a row of `table`: its primary-key columns
// joined with '/', or the rowid for a table without a declared key.
absl::StatusOr<std::string> KeyExpression(Connection& conn, const std::string& table) {
  GORANK_ASSIGN_OR_RETURN(std::vector<KeyColumn> pk, PrimaryKeyColumns(conn, table));
  if (pk.empty()) return std::string("rowid");
  std::string expr;
  for (const KeyColumn& col : pk) expr += (expr.empty() ? "" : " || '/' || ") + Quote(col.name);
  return expr;
}

// Column 0 is the key; the digest covers columns 1..n with type tags and
// lengths, so no two different rows share an encoding.
std::string DigestColumns(const Statement& st) {
  std::string data;
  for (int i = 1; i < st.ColumnCount(); ++i) {
    const int type = st.ColumnType(i);
    std::string value;
    if (type == SQLITE_INTEGER) {
      value = std::to_string(st.Int(i));
    } else if (type == SQLITE_FLOAT) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", st.Double(i));
      value = buf;
    } else if (type == SQLITE_TEXT) {
      value = st.Text(i);
    } else if (type == SQLITE_BLOB) {
      value = st.Blob(i);
    }
    data += std::to_string(type) + ":" + std::to_string(value.size()) + ":" + value;
  }
  return audit::HexEncode(audit::Sha256(data));
}

// The key a row had, from its column values (as DeletedRow holds them):
// the primary-key columns joined with '/', as KeyExpression computes it.
absl::StatusOr<std::string> KeyOfValues(Connection& conn, const std::string& table,
                                        const std::vector<std::optional<std::string>>& values) {
  GORANK_ASSIGN_OR_RETURN(std::vector<KeyColumn> pk, PrimaryKeyColumns(conn, table));
  std::string key;
  for (const KeyColumn& col : pk) {
    if (!key.empty()) key += "/";
    if (col.index >= 0 && col.index < static_cast<int64_t>(values.size()) && values[col.index]) {
      key += *values[col.index];
    }
  }
  return key;
}

}  // namespace

absl::StatusOr<std::map<std::string, std::string>> DigestRows(
    Connection& conn, const std::vector<std::pair<std::string, int64_t>>& rows,
    const std::vector<Connection::DeletedRow>& deleted) {
  std::map<std::string, std::string> out;
  for (const auto& [table, values] : deleted) {
    GORANK_ASSIGN_OR_RETURN(std::string key, KeyOfValues(conn, table, values));
    if (!key.empty()) out[table + ":" + key] = kDeletedRow;
  }
  std::map<std::pair<std::string, int64_t>, bool> seen;
  for (const auto& row : rows) {
    if (seen[row]) continue;
    seen[row] = true;
    GORANK_ASSIGN_OR_RETURN(std::string key, KeyExpression(conn, row.first));
    const std::string sql = "SELECT " + key + ", * FROM " + Quote(row.first) + " WHERE rowid = ?1";
    GORANK_ASSIGN_OR_RETURN(auto st, conn.Prepare(sql.c_str()));
    st->Bind(1, row.second);
    GORANK_ASSIGN_OR_RETURN(bool found, st->Step());
    if (found) {
      out[row.first + ":" + st->Text(0)] = DigestColumns(*st);
    } else {
      // Deleted within the change: the key can no longer be read, so the
      // rowid names it.
      out[row.first + ":rowid/" + std::to_string(row.second)] = kDeletedRow;
    }
  }
  return out;
}

absl::StatusOr<std::map<std::string, std::string>> DigestAllRows(Connection& conn) {
  std::vector<std::string> tables;
  {
    GORANK_ASSIGN_OR_RETURN(auto st, conn.Prepare(kListTables));
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      tables.push_back(st->Text(0));
    }
  }
  std::map<std::string, std::string> out;
  for (const std::string& table : tables) {
    GORANK_ASSIGN_OR_RETURN(std::string key, KeyExpression(conn, table));
    const std::string sql = "SELECT " + key + ", * FROM " + Quote(table);
    GORANK_ASSIGN_OR_RETURN(auto st, conn.Prepare(sql.c_str()));
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      out[table + ":" + st->Text(0)] = DigestColumns(*st);
    }
  }
  return out;
}

}  // namespace gorank::storage
