// The offline check behind `rankctl cert verify-offline` (certificate_
// offline.h), pure so that it is tested on its own: a statement text (or
// the verify URL that carries it) checked against the federation's public
// key, a signed revocation list and the holder's name as printed; and the
// reading of a federation key file. No network, no gRPC.
#ifndef GORANK_SERVICES_CLI_OFFLINE_CHECK_H_
#define GORANK_SERVICES_CLI_OFFLINE_CHECK_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "services/audit/revocation_list.h"
#include "services/audit/signing_key.h"

namespace gorank::cli {

// Exit statuses of verify-offline besides rankctl's 0 (valid) and 2 (usage):
// a contract for scripts, listed in --help and README.
inline constexpr int kExitMalformed = 4;
inline constexpr int kExitTampered = 5;
inline constexpr int kExitWrongKey = 6;
inline constexpr int kExitRevoked = 7;
inline constexpr int kExitBadRevocationList = 8;
inline constexpr int kExitNameMismatch = 9;

// The outcome of an offline check: the exit status (0 when valid) and what
// to print (stdout when 0, else the reason, for stderr). Value type.
struct OfflineVerdict {
  int exit = 0;
  std::string text;
};

// Checks `text` (a statement or a verify URL with s=...) against `key`, then
// (when given) against `revocations` and (when not empty) `name`, in that
// order; the first failure decides: kExitMalformed, kExitWrongKey,
// kExitTampered, kExitBadRevocationList, kExitRevoked (the reason names the
// revocation date, Asia/Shanghai), kExitNameMismatch. Pure; thread-safe.
OfflineVerdict VerifyOffline(
    const std::string& text, const audit::VerifyingKey& key,
    const std::optional<audit::RevocationList>& revocations,
    const std::string& name);

// Reads a federation key file: PEM (SubjectPublicKeyInfo) or the base64 of
// the 32 raw bytes, surrounding white space ignored. NOT_FOUND when the
// file cannot be read; INVALID_ARGUMENT (naming the file) when it holds no
// Ed25519 public key. Thread-safe.
absl::StatusOr<audit::VerifyingKey> ReadFederationKey(const std::string& path);

// The whole file at `path`; NOT_FOUND ("cannot read PATH") otherwise.
absl::StatusOr<std::string> ReadWholeFile(const std::string& path);

}  // namespace gorank::cli

#endif  // GORANK_SERVICES_CLI_OFFLINE_CHECK_H_
