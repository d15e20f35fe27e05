#include "tests/testing/database_snapshot.h"

#include "services/common/status_macros.h"

namespace gorank::testing {
namespace {

// The tables a snapshot holds, each read whole in key order; the SQL is the
// same on SQLite and PostgreSQL (Connection::Prepare keeps the text, so
// literals).
struct TableQuery {
  const char* table;
  const char* sql;
};
constexpr TableQuery kTables[] = {
    {"agencies", "SELECT * FROM agencies ORDER BY prefix"},
    {"players", "SELECT * FROM players ORDER BY id"},
    {"rank_history", "SELECT * FROM rank_history ORDER BY id"},
    {"tokens", "SELECT * FROM tokens ORDER BY id"},
    {"audit_log", "SELECT * FROM audit_log ORDER BY seq"},
};

// One row as quoted values: NULL, integers, 'text', X'hex' for bytes.
std::string RowText(const storage::Statement& st) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (int i = 0; i < st.ColumnCount(); ++i) {
    if (i) out += ',';
    switch (st.ColumnType(i)) {
      case storage::kColumnNull:
        out += "NULL";
        break;
      case storage::kColumnInteger:
        out += std::to_string(st.Int(i));
        break;
      case storage::kColumnBlob:
        out += "X'";
        for (unsigned char c : st.Blob(i)) {
          out += kHex[c >> 4];
          out += kHex[c & 15];
        }
        out += "'";
        break;
      default:
        out += "'" + st.Text(i) + "'";
        break;
    }
  }
  return out;
}

constexpr char kCountAudit[] = "SELECT count(*) FROM audit_log";
constexpr char kReadAuditAfter[] =
    "SELECT entry FROM audit_log WHERE seq > ?1 ORDER BY seq";

}  // namespace

int64_t DatabaseSnapshot::Rows(const std::string& table) const {
  auto it = tables.find(table);
  return it == tables.end() ? -1 : it->second.rows;
}

void PrintTo(const DatabaseSnapshot& s, std::ostream* os) {
  *os << "{";
  for (const auto& [name, t] : s.tables) *os << " " << name << "=" << t.rows;
  *os << " }";
}

absl::StatusOr<DatabaseSnapshot> TakeSnapshot(storage::Database* db) {
  DatabaseSnapshot out;
  GORANK_RETURN_IF_ERROR(db->Read([&](storage::Connection& c) -> absl::Status {
    for (const TableQuery& q : kTables) {
      GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(q.sql));
      TableSnapshot& t = out.tables[q.table];
      while (true) {
        GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
        if (!row) break;
        if (t.rows++ > 0) t.contents += '\n';
        t.contents += RowText(*st);
      }
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<int64_t> CountAuditRows(storage::Database* db) {
  int64_t n = 0;
  GORANK_RETURN_IF_ERROR(db->Read([&](storage::Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kCountAudit));
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (row) n = st->Int(0);
    return absl::OkStatus();
  }));
  return n;
}

absl::StatusOr<std::vector<ChangeRecord>> ReadAuditLog(storage::Database* db) {
  GORANK_ASSIGN_OR_RETURN(std::vector<audit::AuditEntry> entries,
                          ReadAuditEntries(db));
  std::vector<ChangeRecord> out;
  for (audit::AuditEntry& e : entries) {
    out.push_back(ChangeRecord{e.time_unix, std::move(e.actor),
                               std::move(e.action), std::move(e.subject),
                               std::move(e.before), std::move(e.after)});
  }
  return out;
}

absl::StatusOr<std::vector<audit::AuditEntry>> ReadAuditEntries(
    storage::Database* db, int64_t after_seq) {
  std::vector<audit::AuditEntry> out;
  GORANK_RETURN_IF_ERROR(db->Read([&](storage::Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kReadAuditAfter));
    st->Bind(1, after_seq);
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      GORANK_ASSIGN_OR_RETURN(audit::AuditEntry entry,
                              audit::AuditEntry::Decode(st->Blob(0)));
      out.push_back(std::move(entry));
    }
  }));
  return out;
}

}  // namespace gorank::testing
