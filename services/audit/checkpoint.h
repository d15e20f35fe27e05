// Checkpoint: a signed tree head of the audit log (tree size, root hash,
// time), signed by the server's Ed25519 key. Auditors keep checkpoints (e.g.
// the one printed in an annual report, or saved as OLD.json) and later check
// that the log they are shown still extends them.
//
// Signed bytes: a short text in the spirit of C2SP tlog-checkpoint, every
// line ending in "\n":
//   gorank audit checkpoint v1
//   <tree_size, decimal>
//   <root_hash, base64>
//   <time_unix, decimal>
// The first line separates these signatures from any other use of the key.
//
// JSON form (OLD.json files and the exported log): one object with keys
//   {"key_id":"<16 hex>","root_hash":"<64 hex>","signature":"<base64>",
//    "time_unix":<int>,"tree_size":<int>}
#ifndef GORANK_SERVICES_AUDIT_CHECKPOINT_H_
#define GORANK_SERVICES_AUDIT_CHECKPOINT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "services/audit/signing_key.h"
#include "services/audit/verdict.h"

namespace gorank::audit {

// Value type; thread-compatible.
struct Checkpoint {
  int64_t tree_size = 0;
  std::string root_hash;  // 32 raw bytes: MTH of the first tree_size entries
  int64_t time_unix = 0;  // when it was signed (Unix seconds)
  std::string signature;  // 64 raw bytes (Ed25519 over SignedBytes())
  std::string key_id;     // VerifyingKey::KeyId() of the signer

  bool operator==(const Checkpoint&) const = default;

  // The bytes the signature covers (see above). Thread-safe.
  std::string SignedBytes() const;

  // The JSON form above, without white space. Thread-safe.
  std::string ToJson() const;
  // Parses the JSON form (white space allowed). INVALID_ARGUMENT when it is
  // not a JSON object with exactly those keys and types, tree_size is
  // negative, root_hash is not 64 hex digits, or signature is not base64;
  // the message names the field. Does not check the signature.
  static absl::StatusOr<Checkpoint> FromJson(const std::string& text);
};

// A checkpoint for (tree_size, root_hash, time_unix) signed by `key`.
// INVALID_ARGUMENT when tree_size < 0 or root_hash is not 32 bytes.
absl::StatusOr<Checkpoint> SignCheckpoint(int64_t tree_size,
                                          const std::string& root_hash,
                                          int64_t time_unix,
                                          const SigningKey& key);

// Passes when `checkpoint` names `key` and its signature is valid for its
// SignedBytes(). Fails (with the reason) on a key-id mismatch, a missing or
// malformed signature, or a signature that does not verify. Thread-safe.
Verdict VerifyCheckpoint(const Checkpoint& checkpoint, const VerifyingKey& key);

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_CHECKPOINT_H_
