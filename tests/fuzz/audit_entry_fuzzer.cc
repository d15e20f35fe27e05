// libFuzzer target: the audit entry decoder (audit::AuditEntry::Decode).
// Decode accepts only canonical bytes, so a decoded entry must encode back to
// exactly the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "services/audit/audit_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using gorank::audit::AuditEntry;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  auto entry = AuditEntry::Decode(bytes);
  if (!entry.ok()) return 0;
  auto encoded = entry->Encode();
  if (!encoded.ok() || *encoded != bytes) std::abort();
  return 0;
}
