// Appending to the audit log: one row per state change, written by the
// repositories inside the same transaction as the change. The entry bytes
// are stored once and never re-encoded; the leaf hash (RFC 6962:
// SHA-256(0x00 || entry)) is stored beside them for the Merkle tree.
#ifndef GORANK_STORAGE_AUDIT_LOG_H_
#define GORANK_STORAGE_AUDIT_LOG_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "services/common/change.h"
#include "storage/database.h"

namespace gorank::storage {

// Appends `change` (encoded once, as audit::AuditEntry, with the digests of
// every row the transaction wrote so far and, when the connection has a
// row-digest key, the keyed link to the previous entry) inside the caller's
// open write transaction and returns its sequence number (1-based; log index
// = seq - 1). INVALID_ARGUMENT when the change cannot be encoded (before or
// after not JSON), which rolls the whole transaction back.
absl::StatusOr<int64_t> AppendAudit(Connection& conn,
                                    const ChangeRecord& change);

// AppendAudit in two halves, for a write that pipelines several changes
// (group commit, sql_certificate_repository). SendAuditReads sends the reads
// an entry needs: the rows written since the last entry's reads, and the
// log's last leaf when this transaction has appended no entry yet (on
// PostgreSQL they run before anything sent later, in the same round trip).
struct AuditReads {
  std::unique_ptr<Statement> last_leaf;  // null: none was needed then
  std::unique_ptr<Connection::WrittenRowReads> rows;
};
// `link_read`: false when an entry of this transaction whose reads were
// sent earlier is appended first (this one links to it, unread).
absl::StatusOr<AuditReads> SendAuditReads(Connection& conn,
                                          bool link_read = true);
// Makes the entry from those reads and appends it, linked to the entry this
// transaction appended last: entries must be made in the order of their
// changes. `hinted_only`: see Connection::WrittenRowReads::Take.
absl::StatusOr<int64_t> AppendAudit(Connection& conn,
                                    const ChangeRecord& change,
                                    AuditReads reads, bool hinted_only);

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_AUDIT_LOG_H_
