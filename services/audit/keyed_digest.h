// Keyed digests of the audit log: HMAC-SHA256 under a secret that lives with
// the server (derived from the checkpoint-signing key, never stored in the
// database or the log). Row digests made with it cannot be inverted by
// guessing a row's content (a resident ID number has too few unknown digits
// to hide behind an unkeyed SHA-256), and each entry written with it carries
// a link: the keyed digest of the previous entry's leaf hash, so rankd can
// name an entry that was altered with its leaf hash recomputed.
#ifndef GORANK_SERVICES_AUDIT_KEYED_DIGEST_H_
#define GORANK_SERVICES_AUDIT_KEYED_DIGEST_H_

#include <cstdint>
#include <string>

#include "services/audit/signing_key.h"

namespace gorank::audit {

// Keyed row digests are written "hmac:" + 64 hex digits; digests of entries
// written before keying are 64 hex digits of plain SHA-256.
inline constexpr char kKeyedDigestPrefix[] = "hmac:";

// The row-digest key of the server holding `key`: every instance and copy
// sharing the key file derives the same one (SigningKey::DeriveSecret).
std::string RowDigestKey(const SigningKey& key);

// HMAC-SHA256 (RFC 2104) of `data` under `key`: 32 raw bytes. Thread-safe.
std::string HmacSha256(const std::string& key, const std::string& data);

// True for a digest written in the keyed form.
bool IsKeyedDigest(const std::string& digest);

// The row-digest key's "rows" entry name for the link to the previous entry
// (`seq` is that entry's 1-based sequence number): "audit_log:<seq>".
std::string ChainRowName(int64_t previous_seq);
// The link's value: "hmac:" + hex HMAC of "audit_log:<seq>:" + the previous
// entry's raw leaf hash.
std::string ChainLink(const std::string& key, int64_t previous_seq,
                      const std::string& previous_leaf_hash);

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_KEYED_DIGEST_H_
