#include "storage/audit_log.h"

#include "services/audit/audit_entry.h"
#include "services/audit/merkle.h"
#include "services/common/status_macros.h"

namespace gorank::storage {
namespace {

constexpr char kInsertAudit[] =
    "INSERT INTO audit_log(entry, leaf_hash) VALUES(?1, ?2)";

}  // namespace

absl::StatusOr<int64_t> AppendAudit(Connection& conn,
                                    const ChangeRecord& change) {
  audit::AuditEntry record = audit::AuditEntry::FromChange(change);
  GORANK_ASSIGN_OR_RETURN(record.rows, conn.TakeWrittenRowDigests());
  GORANK_ASSIGN_OR_RETURN(const std::string entry, record.Encode());
  GORANK_ASSIGN_OR_RETURN(auto st, conn.Prepare(kInsertAudit));
  st->BindBlob(1, entry).BindBlob(2, audit::LeafHash(entry));
  GORANK_RETURN_IF_ERROR(st->Run());
  return conn.LastInsertRowId();
}

}  // namespace gorank::storage
