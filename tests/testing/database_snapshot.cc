#include "tests/testing/database_snapshot.h"

#include "nlohmann/json.hpp"
#include "services/common/status_macros.h"

namespace gorank::testing {
namespace {

struct TableQuery {
  const char* table;
  const char* sql;  // one row: count, contents
};

// Connection::Prepare needs SQL that outlives the connection: literals.
constexpr TableQuery kTables[] = {
    {"agencies",
     "SELECT count(*), ifnull(group_concat(r, char(10)), '') FROM (SELECT "
     "quote(prefix)||','||quote(name)||','||quote(name_en)||','||quote(level)"
     "||','||quote(status)||','||quote(status_reason) AS r FROM agencies "
     "ORDER BY prefix)"},
    {"players",
     "SELECT count(*), ifnull(group_concat(r, char(10)), '') FROM (SELECT "
     "quote(id)||','||quote(name)||','||quote(latin_name)||','||quote(gender)"
     "||','||quote(birth_date)||','||quote(agency_prefix)||','||"
     "quote(resident_id)||','||quote(rank_ordinal)||','||quote(created_unix)"
     "||','||quote(updated_unix)||','||quote(gomoku_rank_ordinal) AS r "
     "FROM players ORDER BY id)"},
    {"rank_history",
     "SELECT count(*), ifnull(group_concat(r, char(10)), '') FROM (SELECT "
     "quote(id)||','||quote(player_id)||','||quote(discipline)||','||"
     "quote(from_ordinal)||','||quote(to_ordinal)||','||quote(effective_date)"
     "||','||quote(reason)||','||quote(basis)||','||quote(actor)||','||"
     "quote(recorded_unix) AS r FROM rank_history ORDER BY id)"},
    {"tokens",
     "SELECT count(*), ifnull(group_concat(r, char(10)), '') FROM (SELECT "
     "quote(id)||','||quote(hash)||','||quote(role)||','||quote(agency_prefix)"
     "||','||quote(label)||','||quote(created_unix)||','||quote(revoked_unix)"
     " AS r FROM tokens ORDER BY id)"},
    {"audit_log",
     "SELECT count(*), ifnull(group_concat(r, char(10)), '') FROM (SELECT "
     "quote(seq)||','||hex(entry)||','||hex(leaf_hash) AS r FROM audit_log "
     "ORDER BY seq)"},
};

constexpr char kCountAudit[] = "SELECT count(*) FROM audit_log";
constexpr char kReadAudit[] = "SELECT entry FROM audit_log ORDER BY seq";

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
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::InternalError("no row from count(*)");
      out.tables[q.table] = TableSnapshot{st->Int(0), st->Text(1)};
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
  std::vector<ChangeRecord> out;
  GORANK_RETURN_IF_ERROR(db->Read([&](storage::Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kReadAudit));
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      const auto j = nlohmann::json::parse(st->Blob(0), nullptr, false);
      if (j.is_discarded())
        return absl::DataLossError("audit entry is not JSON");
      out.push_back(ChangeRecord{j.value("time", int64_t{0}),
                                 j.value("actor", ""), j.value("action", ""),
                                 j.value("subject", ""), j.value("before", ""),
                                 j.value("after", "")});
    }
  }));
  return out;
}

}  // namespace gorank::testing
