// RevocationList: the certificates revoked in the first tree_size entries of
// the audit log, signed by the federation key (the audit key, see
// certificate_statement.h), so that an offline verifier knows revocations
// as of a checkpoint (rankctl cert verify-offline --revocations FILE).
//
// The list names revoked numbers with their revocation time, never a
// holder: a revocation is a public act of the issuing body, as the notice
// list is, and a number alone links to nobody.
//
// Signed bytes, every line ending in "\n":
//   gorank revocation list v1
//   <tree_size, decimal>
//   <time_unix, decimal>
//   <number> <revoked_unix>      one line per certificate, by number
// JSON form (the file offline verifiers keep):
//   {"key_id":"<16 hex>","revoked":[{"number":"...","revoked_unix":<int>}],
//    "signature":"<base64>","time_unix":<int>,"tree_size":<int>}
#ifndef GORANK_SERVICES_AUDIT_REVOCATION_LIST_H_
#define GORANK_SERVICES_AUDIT_REVOCATION_LIST_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/audit/signing_key.h"
#include "services/audit/verdict.h"

namespace gorank::audit {

struct Revocation {
  std::string number;
  int64_t revoked_unix = 0;
  bool operator==(const Revocation&) const = default;
};

// Value type; thread-compatible.
struct RevocationList {
  int64_t tree_size = 0;
  int64_t time_unix = 0;
  std::vector<Revocation> revoked;  // by number, each number once
  std::string key_id;
  std::string signature;  // 64 raw bytes

  bool operator==(const RevocationList&) const = default;

  std::string SignedBytes() const;
  std::string ToJson() const;
  // INVALID_ARGUMENT (naming the field) when the text is not that JSON
  // object, a number is not nine digits, or the list is not by number.
  // Does not check the signature.
  static absl::StatusOr<RevocationList> FromJson(const std::string& text);

  // The revocation of `number`, if listed.
  std::optional<Revocation> Find(const std::string& number) const;
};

// Sorts `revoked` by number (the last revocation of a number wins), sets
// key_id and signs.
RevocationList SignRevocationList(int64_t tree_size, int64_t time_unix,
                                  std::vector<Revocation> revoked,
                                  const SigningKey& key);

// Passes when the list names `key` and its signature verifies.
Verdict VerifyRevocationList(const RevocationList& list,
                             const VerifyingKey& key);

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_REVOCATION_LIST_H_
