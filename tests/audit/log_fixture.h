// Builds realistic audit logs for the file and verifier tests: canonical
// AuditEntry encodings, the leaf hashes a server would record, and
// checkpoints signed at chosen sizes with a fixed test key. Test-only.
#ifndef GORANK_TESTS_AUDIT_LOG_FIXTURE_H_
#define GORANK_TESTS_AUDIT_LOG_FIXTURE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "services/audit/audit_entry.h"
#include "services/audit/checkpoint.h"
#include "services/audit/compact_range.h"
#include "services/audit/log_file.h"
#include "services/audit/signing_key.h"

namespace gorank::audit::testing {

inline SigningKey FixtureKey(char fill = 's') {
  return SigningKey::FromSeed(std::string(32, fill)).value();
}

inline std::string FixtureEntry(int64_t i) {
  AuditEntry entry{1767225600 + i,
                   "agency:110/token:" + std::to_string(i % 3),
                   "player.register",
                   "player:" + std::to_string(100 + i),
                   "",
                   "{\"name\":\"选手" + std::to_string(i) + "\",\"rank\":\"" +
                       std::to_string(1 + i % 7) + "d\"}"};
  return entry.Encode().value();
}

// An exported log of `entries[i] = FixtureEntry(i)` (or the given bytes)
// with a checkpoint signed by `key` at each of `sizes`.
inline ExportedLog SignedLog(const std::vector<std::string>& entries,
                             const std::vector<int64_t>& sizes,
                             const SigningKey& key) {
  ExportedLog log;
  CompactRange range;
  size_t next_size = 0;
  for (size_t i = 0; i <= entries.size(); ++i) {
    while (next_size < sizes.size() &&
           sizes[next_size] == static_cast<int64_t>(i)) {
      log.checkpoints.push_back(SignCheckpoint(range.size(), range.RootHash(),
                                               1767225600 + range.size(), key)
                                    .value());
      ++next_size;
    }
    if (i == entries.size()) break;
    log.entries.push_back({entries[i], range.AppendEntry(entries[i])});
  }
  return log;
}

inline std::vector<std::string> FixtureEntries(int64_t n) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < n; ++i) out.push_back(FixtureEntry(i));
  return out;
}

}  // namespace gorank::audit::testing

#endif  // GORANK_TESTS_AUDIT_LOG_FIXTURE_H_
