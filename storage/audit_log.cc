#include "storage/audit_log.h"

#include "services/audit/audit_entry.h"
#include "services/audit/keyed_digest.h"
#include "services/audit/merkle.h"
#include "services/common/status_macros.h"

namespace gorank::storage {
namespace {

// RETURNING: the sequence number comes back with the insert (no second
// round trip on PostgreSQL).
constexpr char kInsertAudit[] =
    "INSERT INTO audit_log(entry, leaf_hash) VALUES(?1, ?2) RETURNING seq";
// The next number known (the last entry was read for the link): the insert
// is sent (Statement::Send) and needs no answer.
constexpr char kInsertAuditAt[] =
    "INSERT INTO audit_log(seq, entry, leaf_hash) VALUES(?1, ?2, ?3)";
constexpr char kLastLeaf[] =
    "SELECT seq, leaf_hash FROM audit_log ORDER BY seq DESC LIMIT 1";

}  // namespace

absl::StatusOr<int64_t> AppendAudit(Connection& conn,
                                    const ChangeRecord& change) {
  GORANK_ASSIGN_OR_RETURN(AuditReads reads, SendAuditReads(conn));
  return AppendAudit(conn, change, std::move(reads), /*hinted_only=*/false);
}

absl::StatusOr<AuditReads> SendAuditReads(Connection& conn, bool link_read) {
  AuditReads reads;
  // The link to the previous entry (keyed_digest.h): the one this
  // transaction appended last, or else read under the write lock, so no
  // other writer appends in between; sent with the written rows' reads (one
  // round trip on PostgreSQL).
  if (link_read && !conn.row_digest_key().empty() && !conn.audit_tip()) {
    GORANK_ASSIGN_OR_RETURN(reads.last_leaf, conn.Prepare(kLastLeaf));
    GORANK_RETURN_IF_ERROR(reads.last_leaf->Send());
  }
  GORANK_ASSIGN_OR_RETURN(reads.rows, conn.SendWrittenRowReads());
  return reads;
}

absl::StatusOr<int64_t> AppendAudit(Connection& conn,
                                    const ChangeRecord& change,
                                    AuditReads reads, bool hinted_only) {
  audit::AuditEntry record = audit::AuditEntry::FromChange(change);
  GORANK_ASSIGN_OR_RETURN(record.rows, reads.rows->Take(hinted_only));
  int64_t next = 0;  // the entry's number, when the last one is known
  if (!conn.row_digest_key().empty()) {
    // An entry this transaction appended since the reads were sent is the
    // last one; the log's last leaf, read before it, is not.
    std::optional<std::pair<int64_t, std::string>> prev = conn.audit_tip();
    if (!prev) {
      std::unique_ptr<Statement> last = std::move(reads.last_leaf);
      if (!last) {
        GORANK_ASSIGN_OR_RETURN(last, conn.Prepare(kLastLeaf));
      }
      GORANK_ASSIGN_OR_RETURN(bool found, last->Step());
      if (found) prev.emplace(last->Int(0), last->Blob(1));
    }
    next = 1;
    if (prev) {
      record.rows[audit::ChainRowName(prev->first)] =
          audit::ChainLink(conn.row_digest_key(), prev->first, prev->second);
      next = prev->first + 1;
    }
  }
  GORANK_ASSIGN_OR_RETURN(const std::string entry, record.Encode());
  std::string leaf = audit::LeafHash(entry);
  if (next > 0) {
    // Numbered here (as max + 1 would number it) and sent: on PostgreSQL it
    // goes with the next round trip (the COMMIT's, or the next write's in a
    // group commit); its failure fails the write.
    GORANK_ASSIGN_OR_RETURN(auto at, conn.Prepare(kInsertAuditAt));
    at->Bind(1, next).BindBlob(2, entry).BindBlob(3, leaf);
    GORANK_RETURN_IF_ERROR(at->Send());
    conn.set_audit_tip(next, leaf);
    conn.NoteAuditEntry(next, std::move(leaf));
    return next;
  }
  GORANK_ASSIGN_OR_RETURN(auto st, conn.Prepare(kInsertAudit));
  st->BindBlob(1, entry).BindBlob(2, leaf);
  GORANK_ASSIGN_OR_RETURN(bool inserted, st->Step());
  if (!inserted) return absl::InternalError("the audit entry was not stored");
  const int64_t seq = st->Int(0);
  conn.NoteAuditEntry(seq, std::move(leaf));
  return seq;
}

}  // namespace gorank::storage
