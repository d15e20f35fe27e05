// Offline verification of the whole audit log: recompute every leaf hash and
// every signed root from the entries' bytes, check the signatures, and check
// that checkpoints the auditor already holds (e.g. from last year's report)
// are still roots of prefixes of the log. Works on entries fetched from the
// server (entries-by-range RPC) or on an exported file (log_file.h).
//
// What a failure can pin down. With recorded leaf hashes (the server's
// leaf-hash column, present in exported files) an entry whose bytes were
// changed is named exactly: its recomputed leaf hash differs. If an attacker
// rewrote the leaf hash too, only the signed roots remain, and they narrow
// the first bad entry to the range between the last checkpoint that still
// matches and the first that does not. A log rewritten and re-signed with the
// server's own key is caught only by a checkpoint held outside the server
// (LogVerifyOptions::trusted), which is why auditors keep one.
//
// A bad log is an answer: every function here returns a LogVerdict, never an
// error status.
#ifndef GORANK_SERVICES_AUDIT_LOG_VERIFIER_H_
#define GORANK_SERVICES_AUDIT_LOG_VERIFIER_H_

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "services/audit/checkpoint.h"
#include "services/audit/log_file.h"
#include "services/audit/signing_key.h"

namespace gorank::audit {

struct LogVerifyOptions {
  // A checkpoint the auditor holds from an independent source (OLD.json).
  // It must be signed by the verifying key (or by `trusted_key` when set)
  // and its root must be the root of the first trusted->tree_size entries.
  std::optional<Checkpoint> trusted;
  std::optional<VerifyingKey> trusted_key;  // e.g. before a key rotation
  // A consistency proof from `trusted` to the latest checkpoint, as served by
  // the server; verified when set (set without `trusted`, the verdict fails).
  std::optional<std::vector<std::string>> consistency_proof;
  // Also require every entry to be a canonical AuditEntry encoding.
  bool require_canonical_entries = true;
};

struct LogVerdict {
  bool ok = false;
  std::string reason;  // empty when ok
  // The lowest index that may be bad, and the exclusive end of the range the
  // first bad entry lies in: bad_index_end == first_bad_index + 1 when the
  // entry is pinned exactly. Both -1 when no entry is to blame (e.g. a bad
  // signature). For a truncated log, the first missing index.
  int64_t first_bad_index = -1;
  int64_t bad_index_end = -1;
  int64_t entries = 0;        // entries read
  int64_t verified_size = 0;  // entries covered by the latest checkpoint
  std::string root_hash;      // recomputed root at verified_size (32 bytes)
  int64_t checkpoints = 0;    // log checkpoints checked

  bool exact() const { return bad_index_end == first_bad_index + 1; }
};

// Streaming verifier: feed entries in index order and checkpoints in any
// order, then Finish(). Memory: 32 bytes an entry plus the checkpoints.
// Thread-compatible.
class LogVerifier {
 public:
  LogVerifier(VerifyingKey key, LogVerifyOptions options);

  // The next entry (index = number added so far) with the leaf hash the
  // server recorded for it ("" when unknown).
  void AddEntry(const std::string& bytes,
                const std::string& recorded_leaf_hash = "");
  // A checkpoint published by the log; the one with the largest tree size
  // is the latest.
  void AddCheckpoint(const Checkpoint& checkpoint);
  // Marks the input as unusable at `index` (e.g. an unreadable line of an
  // exported file); Finish() reports it unless an earlier entry is bad.
  void AddDefect(int64_t index, const std::string& reason);

  // The verdict: fails with no checkpoint, a checkpoint whose signature does
  // not verify, a bad entry, a signed root that the entries do not
  // reproduce, fewer entries than a checkpoint covers, a trusted checkpoint
  // the log no longer extends, or a consistency proof that does not verify.
  // Signature failures come first (no index). Among entry failures the
  // lowest wins, except that an exact defect (entry bytes vs recorded leaf
  // hash, or an entry that does not decode) inside the range a bad signed
  // root blames is reported instead of that range, since it explains it.
  LogVerdict Finish() const;

 private:
  struct Blame {
    int64_t begin = -1;
    int64_t end = -1;
    std::string reason;
  };
  void Record(Blame blame);
  bool IsTrusted(const Checkpoint* checkpoint) const;
  // Every log checkpoint under key_, the trusted one under its key.
  Verdict CheckSignatures() const;
  // The optional consistency proof from the trusted checkpoint to `latest`.
  Verdict CheckConsistencyProof(const Checkpoint& latest) const;
  // Checks every signed size (ascending in `by_size`) against the recomputed
  // prefix roots; sets verdict.root_hash at `latest`, or `blame`.
  void CheckRoots(const std::vector<const Checkpoint*>& by_size,
                  const Checkpoint* latest, LogVerdict& verdict,
                  Blame& blame) const;

  VerifyingKey key_;
  LogVerifyOptions options_;
  std::string leaf_hashes_;  // 32 bytes an entry, concatenated
  int64_t entries_ = 0;
  std::vector<Checkpoint> checkpoints_;
  std::optional<Blame> first_entry_blame_;
};

// Verifies entries (bytes, in index order) against the latest checkpoint.
LogVerdict VerifyLog(const std::vector<std::string>& entries,
                     const Checkpoint& latest, const VerifyingKey& key,
                     const LogVerifyOptions& options = {});

// Verifies an exported log already in memory.
LogVerdict VerifyExportedLog(const ExportedLog& log, const VerifyingKey& key,
                             const LogVerifyOptions& options = {});

// Verifies an exported log file while reading it (memory: 32 bytes an
// entry). A line that cannot be parsed, or an entry index out of sequence,
// is reported as a bad entry at the index where it occurs.
LogVerdict VerifyLogFile(std::istream& in, const VerifyingKey& key,
                         const LogVerifyOptions& options = {});

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_LOG_VERIFIER_H_
