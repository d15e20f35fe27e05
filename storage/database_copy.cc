#include "storage/database_copy.h"

#include <map>
#include <memory>
#include <vector>

#include "services/audit/encoding.h"
#include "services/audit/merkle.h"
#include "services/common/status_macros.h"
#include "storage/row_digest.h"

namespace gorank::storage {
namespace {

// Foreign keys are checked at commit: tables are copied by name, not in
// the order their references need.
absl::Status DeferForeignKeys(Connection& c) {
  return c.Exec(c.engine() == Engine::kSqlite ? "PRAGMA defer_foreign_keys = ON"
                                              : "SET CONSTRAINTS ALL DEFERRED");
}

absl::StatusOr<int64_t> CountRows(Connection& c, const std::string& table) {
  const std::string sql = "SELECT count(*) FROM " + QuoteIdentifier(table);
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql.c_str()));
  GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
  return row ? st->Int(0) : 0;
}

absl::StatusOr<std::string> Fingerprint(Connection& c) {
  // Unkeyed: the two databases may be open with different row-digest keys
  // (or none); the fingerprint is compared here, never stored.
  GORANK_ASSIGN_OR_RETURN(auto rows, DigestAllRows(c, /*key=*/""));
  std::string data;
  for (const auto& [key, digest] : rows) data += key + "=" + digest + "\n";
  GORANK_ASSIGN_OR_RETURN(
      auto st, c.Prepare("SELECT seq, leaf_hash FROM audit_log ORDER BY seq"));
  while (true) {
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) break;
    data += "log " + std::to_string(st->Int(0)) + "=" +
            audit::HexEncode(st->Blob(1)) + "\n";
  }
  return audit::HexEncode(audit::Sha256(data));
}

// Copies the rows of `table` from `r` into `w`.
absl::StatusOr<int64_t> CopyTable(Connection& r, Connection& w,
                                  const std::string& table) {
  GORANK_ASSIGN_OR_RETURN(std::vector<std::string> columns,
                          r.TableColumns(table));
  GORANK_ASSIGN_OR_RETURN(std::vector<std::string> target_columns,
                          w.TableColumns(table));
  if (columns != target_columns) {
    return absl::FailedPreconditionError(
        "table " + table + " has different columns in the two databases");
  }
  std::string names, params;
  for (size_t i = 0; i < columns.size(); ++i) {
    names += (i ? ", " : "") + QuoteIdentifier(columns[i]);
    params += (i ? ", ?" : "?") + std::to_string(i + 1);
  }
  const std::string select =
      "SELECT " + names + " FROM " + QuoteIdentifier(table);
  const std::string insert = "INSERT INTO " + QuoteIdentifier(table) + "(" +
                             names + ") VALUES(" + params + ")";
  GORANK_ASSIGN_OR_RETURN(auto in, r.Prepare(select.c_str()));
  int64_t copied = 0;
  while (true) {
    GORANK_ASSIGN_OR_RETURN(bool row, in->Step());
    if (!row) break;
    GORANK_ASSIGN_OR_RETURN(auto out, w.Prepare(insert.c_str()));
    for (int i = 0; i < static_cast<int>(columns.size()); ++i) {
      switch (in->ColumnType(i)) {
        case kColumnInteger:
          out->Bind(i + 1, in->Int(i));
          break;
        case kColumnBlob:
          out->BindBlob(i + 1, in->Blob(i));
          break;
        case kColumnNull:
          out->BindNull(i + 1);
          break;
        case kColumnFloat:  // no table has one; text keeps every digit
        case kColumnText:
          out->Bind(i + 1, in->Text(i));
          break;
      }
    }
    GORANK_RETURN_IF_ERROR(out->Run());
    ++copied;
  }
  return copied;
}

}  // namespace

absl::StatusOr<CopyReport> CopyDatabase(Database& from, Database& to) {
  GORANK_ASSIGN_OR_RETURN(int from_version, from.SchemaVersion());
  GORANK_ASSIGN_OR_RETURN(int to_version, to.SchemaVersion());
  if (from_version != to_version) {
    return absl::FailedPreconditionError(
        "schema versions differ: " + from.path() + " is at " +
        std::to_string(from_version) + ", " + to.path() + " at " +
        std::to_string(to_version) + "; open both with this rankd first");
  }
  CopyReport report;
  absl::Status s = to.Write([&](Connection& w) -> absl::Status {
    return from.Read([&](Connection& r) -> absl::Status {
      GORANK_ASSIGN_OR_RETURN(std::vector<std::string> tables, r.ListTables());
      GORANK_ASSIGN_OR_RETURN(std::vector<std::string> target_tables,
                              w.ListTables());
      if (tables != target_tables) {
        return absl::FailedPreconditionError(
            "the two databases hold different tables");
      }
      for (const std::string& table : tables) {
        GORANK_ASSIGN_OR_RETURN(int64_t n, CountRows(w, table));
        if (n != 0) {
          return absl::FailedPreconditionError(
              "the target database " + to.path() + " is not empty (table " +
              table + " has " + std::to_string(n) +
              " rows): copy into a new, empty database");
        }
      }
      GORANK_RETURN_IF_ERROR(DeferForeignKeys(w));
      for (const std::string& table : tables) {
        GORANK_ASSIGN_OR_RETURN(int64_t n, CopyTable(r, w, table));
        ++report.tables;
        report.rows += n;
        if (table == "audit_log") report.audit_entries = n;
      }
      // The copy is not a change of the registry: nothing is logged (the
      // rows PostgreSQL's triggers noted go with the commit).
      GORANK_ASSIGN_OR_RETURN(std::string source, Fingerprint(r));
      GORANK_ASSIGN_OR_RETURN(std::string copy, Fingerprint(w));
      if (source != copy) {
        return absl::DataLossError("the copy differs from " + from.path() +
                                   " (row digests); nothing was written");
      }
      report.rows_sha256 = copy;
      return absl::OkStatus();
    });
  });
  GORANK_RETURN_IF_ERROR(s);
  return report;
}

absl::StatusOr<std::string> RegistryFingerprint(Database& db) {
  std::string out;
  GORANK_RETURN_IF_ERROR(db.Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(out, Fingerprint(c));
    return absl::OkStatus();
  }));
  return out;
}

}  // namespace gorank::storage
