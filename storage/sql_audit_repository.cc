#include "storage/sql_audit_repository.h"

#include <unistd.h>

#include "services/common/status_macros.h"
#include "storage/audit_log.h"
#include "storage/row_digest.h"
#include "storage/sqlite_database.h"

namespace gorank::storage {
namespace {

constexpr char kLogSize[] = "SELECT count(*) FROM audit_log";
constexpr char kEntries[] =
    "SELECT entry FROM audit_log WHERE seq > ?1 AND seq <= ?2 ORDER BY seq";
constexpr char kLeafHashes[] =
    "SELECT leaf_hash FROM audit_log WHERE seq > ?1 AND seq <= ?2 ORDER BY seq";
constexpr char kSaveCheckpoint[] =
    "INSERT INTO audit_checkpoints(tree_size, root_hash, time_unix, signature, "
    "key_id) VALUES(?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING";
constexpr char kLatestCheckpoint[] =
    "SELECT tree_size, root_hash, time_unix, signature, key_id FROM "
    "audit_checkpoints "
    "ORDER BY tree_size DESC LIMIT 1";
constexpr char kInsertReview[] =
    "INSERT INTO annual_reviews(agency_prefix, year, outcome, findings, "
    "checkpoint_size, "
    "checkpoint_root, reviewer, recorded_unix) VALUES(?1, ?2, ?3, ?4, ?5, ?6, "
    "?7, ?8)";
constexpr char kListReviews[] =
    "SELECT id, agency_prefix, year, outcome, findings, checkpoint_size, "
    "checkpoint_root, "
    "reviewer, recorded_unix FROM annual_reviews WHERE (?1 = '' OR "
    "agency_prefix = ?1) "
    "AND (?2 = 0 OR year = ?2) ORDER BY id DESC";
constexpr char kListReviewsBefore[] =
    "SELECT id, agency_prefix, year, outcome, findings, checkpoint_size, "
    "checkpoint_root, reviewer, recorded_unix FROM annual_reviews "
    "WHERE (?3 = 0 OR id < ?3) AND (?1 = '' OR agency_prefix = ?1) "
    "AND (?2 = 0 OR year = ?2) ORDER BY id DESC LIMIT ?4";

audit::Review ReadReview(Statement& st) {
  return audit::Review{st.Int(0),
                       st.Text(1),
                       static_cast<int>(st.Int(2)),
                       static_cast<audit::ReviewOutcome>(st.Int(3)),
                       st.Text(4),
                       st.Int(5),
                       st.Blob(6),
                       st.Text(7),
                       st.Int(8)};
}

}  // namespace

absl::StatusOr<int64_t> SqlAuditRepository::LogSize() {
  int64_t n = 0;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kLogSize));
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (row) n = st->Int(0);
    return absl::OkStatus();
  }));
  return n;
}

absl::StatusOr<std::vector<std::string>> SqlAuditRepository::Column(
    const char* sql, int64_t begin, int64_t end) {
  std::vector<std::string> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql));
    st->Bind(1, begin).Bind(2, end);
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      out.push_back(st->Blob(0));
    }
  }));
  if (static_cast<int64_t>(out.size()) != end - begin) {
    return absl::OutOfRangeError("the audit log has no entries " +
                                 std::to_string(begin) + ".." +
                                 std::to_string(end - 1));
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> SqlAuditRepository::Entries(
    int64_t begin, int64_t end) {
  return Column(kEntries, begin, end);
}

absl::StatusOr<std::vector<std::string>> SqlAuditRepository::LeafHashes(
    int64_t begin, int64_t end) {
  return Column(kLeafHashes, begin, end);
}

absl::Status SqlAuditRepository::SaveCheckpoint(const audit::Checkpoint& cp) {
  return db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kSaveCheckpoint));
    st->Bind(1, cp.tree_size)
        .BindBlob(2, cp.root_hash)
        .Bind(3, cp.time_unix)
        .BindBlob(4, cp.signature)
        .Bind(5, cp.key_id);
    return st->Run();
  });
}

absl::StatusOr<std::optional<audit::Checkpoint>>
SqlAuditRepository::LatestCheckpoint() {
  std::optional<audit::Checkpoint> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kLatestCheckpoint));
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (row) {
      out = audit::Checkpoint{st->Int(0), st->Blob(1), st->Int(2), st->Blob(3),
                              st->Text(4)};
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::map<std::string, std::string>>
SqlAuditRepository::CurrentRowDigests() {
  std::map<std::string, std::string> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(out, DigestAllRows(c));
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<int64_t> SqlAuditRepository::InsertReview(
    const audit::Review& r, const ChangeRecord& change) {
  int64_t id = 0;
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsertReview));
    st->Bind(1, r.agency_prefix)
        .Bind(2, int64_t{r.year})
        .Bind(3, int64_t{static_cast<int>(r.outcome)})
        .Bind(4, r.findings)
        .Bind(5, r.checkpoint_size)
        .BindBlob(6, r.checkpoint_root)
        .Bind(7, r.reviewer)
        .Bind(8, r.recorded_unix);
    GORANK_RETURN_IF_ERROR(st->Run());
    id = c.LastInsertRowId();
    return AppendAudit(c, change).status();
  });
  if (absl::IsFailedPrecondition(s)) {
    return absl::NotFoundError("no agency with prefix " + r.agency_prefix);
  }
  if (!s.ok()) return s;
  return id;
}

absl::StatusOr<std::vector<audit::Review>> SqlAuditRepository::ListReviews(
    const std::string& prefix, int year) {
  std::vector<audit::Review> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kListReviews));
    st->Bind(1, prefix).Bind(2, int64_t{year});
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      out.push_back(audit::Review{
          st->Int(0), st->Text(1), static_cast<int>(st->Int(2)),
          static_cast<audit::ReviewOutcome>(st->Int(3)), st->Text(4),
          st->Int(5), st->Blob(6), st->Text(7), st->Int(8)});
    }
  }));
  return out;
}

absl::StatusOr<std::vector<audit::Review>>
SqlAuditRepository::ListReviewsBefore(const std::string& prefix, int year,
                                      int64_t before_id, int limit) {
  std::vector<audit::Review> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kListReviewsBefore));
    st->Bind(1, prefix)
        .Bind(2, int64_t{year})
        .Bind(3, before_id)
        .Bind(4, int64_t{limit});
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) return absl::OkStatus();
      out.push_back(ReadReview(*st));
    }
  }));
  return out;
}

absl::StatusOr<std::map<std::string, std::string>>
SqlAuditRepository::LegacyRowDigests() {
  std::map<std::string, std::string> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(out, DigestAllRows(c, /*key=*/""));
    return absl::OkStatus();
  }));
  return out;
}

absl::Status SqlAuditRepository::Backup(const std::string& dest_path,
                                        bool remove_resident_ids) {
  GORANK_RETURN_IF_ERROR(db_->BackupTo(dest_path));
  if (!remove_resident_ids) return absl::OkStatus();
  absl::Status s = RemoveResidentIds(dest_path);
  if (!s.ok()) ::unlink(dest_path.c_str());  // never hand out the full copy
  return s;
}

}  // namespace gorank::storage
