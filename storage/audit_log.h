// Appending to the audit log: one row per state change, written by the
// repositories inside the same transaction as the change. The entry bytes
// are stored once and never re-encoded; the leaf hash (RFC 6962:
// SHA-256(0x00 || entry)) is stored beside them for the Merkle tree.
#ifndef GORANK_STORAGE_AUDIT_LOG_H_
#define GORANK_STORAGE_AUDIT_LOG_H_

#include <functional>
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
// The same, running `meanwhile` while the written rows are read
// (Connection::TakeWrittenRowDigests).
absl::StatusOr<int64_t> AppendAudit(
    Connection& conn, const ChangeRecord& change,
    const std::function<absl::Status()>& meanwhile);

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_AUDIT_LOG_H_
