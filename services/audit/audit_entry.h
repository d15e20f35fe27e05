// AuditEntry: one state change recorded in the audit log (who, when, what,
// and the record before and after), and its canonical byte encoding. The
// encoded bytes are what the Merkle tree hashes (merkle.h LeafHash); they are
// produced once when the change is committed, stored as they are, and never
// re-encoded, so a later change of this encoder cannot alter old leaves.
//
// Encoding (version 1): a JSON object without white space, keys in this
// fixed (alphabetical) order, strings in UTF-8 with JSON's minimal escaping:
//   {"action":"...","actor":"...","after":"...","before":"...",
//    "subject":"...","time":<int>,"v":1}
// `before` and `after` hold JSON texts as *strings* (or ""), so their bytes
// survive exactly, whatever their own key order or spacing.
// When the change wrote database rows, a "rows" object (between "before"
// and "subject") maps each row ("table:primary key") to the hex SHA-256
// digest of its content after the change; auditors compare those digests
// with the tables to find rows altered behind the log's back. Entries
// without rows omit the key.
#ifndef GORANK_SERVICES_AUDIT_AUDIT_ENTRY_H_
#define GORANK_SERVICES_AUDIT_AUDIT_ENTRY_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "services/common/change.h"

namespace gorank::audit {

// Value type; thread-compatible.
struct AuditEntry {
  int64_t time_unix = 0;  // when the change was committed (Unix seconds)
  std::string actor;      // who: an account, agency or "system"
  std::string action;     // what: e.g. "certificate.issue"
  std::string subject;    // which record: e.g. "certificate/110250001"
  std::string before;     // JSON text of the record before, or "" if none
  std::string after;      // JSON text of the record after, or "" if none
  // "table:key" -> hex digest of the row after the change (see above).
  std::map<std::string, std::string> rows = {};

  bool operator==(const AuditEntry&) const = default;

  // The entry recording `change` (same six fields).
  static AuditEntry FromChange(const ChangeRecord& change);

  // The canonical bytes described above. INVALID_ARGUMENT when actor or
  // action is empty, a field is not valid UTF-8, or before/after is neither
  // empty nor a valid JSON text (the message names the field). Thread-safe.
  absl::StatusOr<std::string> Encode() const;

  // Inverse of Encode(): accepts exactly the bytes Encode() produces, so one
  // entry has one byte form. INVALID_ARGUMENT for anything else (not JSON,
  // a missing, extra or mistyped field, version other than 1, or valid JSON
  // that is not in canonical form). Thread-safe.
  static absl::StatusOr<AuditEntry> Decode(const std::string& bytes);
};

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_AUDIT_ENTRY_H_
