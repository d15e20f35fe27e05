#include "services/cli/offline_check.h"

#include <fstream>
#include <sstream>

#include "services/audit/certificate_statement.h"
#include "services/common/date.h"

namespace gorank::cli {
namespace {

std::string Trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// The revocation verdict: exit 0 with the line to print, or the failure.
OfflineVerdict CheckRevocations(
    const audit::CertificateStatement& s, const audit::VerifyingKey& key,
    const std::optional<audit::RevocationList>& revocations) {
  if (!revocations) return {0, "revocations not checked (no --revocations)"};
  if (audit::Verdict v = audit::VerifyRevocationList(*revocations, key);
      !v.ok) {
    return {kExitBadRevocationList, "bad revocation list: " + v.reason};
  }
  const std::string as_of = ShanghaiDate(revocations->time_unix).ToString() +
                            " (audit log size " +
                            std::to_string(revocations->tree_size) + ")";
  if (std::optional<audit::Revocation> r = revocations->Find(s.number)) {
    return {kExitRevoked, "revoked: certificate " + s.number +
                              " was revoked on " +
                              ShanghaiDate(r->revoked_unix).ToString() +
                              " (revocation list of " + as_of + ")"};
  }
  return {0, "not revoked as of " + as_of};
}

}  // namespace

absl::StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

absl::StatusOr<audit::VerifyingKey> ReadFederationKey(const std::string& path) {
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  const std::string t = Trimmed(*text);
  absl::StatusOr<audit::VerifyingKey> key =
      t.rfind("-----BEGIN", 0) == 0 ? audit::VerifyingKey::FromPem(t)
                                    : audit::VerifyingKey::FromBase64(t);
  if (!key.ok()) {
    return absl::InvalidArgumentError(
        path + " is not an Ed25519 public key (PEM or base64 of 32 bytes): " +
        std::string(key.status().message()));
  }
  return key;
}

OfflineVerdict VerifyOffline(
    const std::string& text, const audit::VerifyingKey& key,
    const std::optional<audit::RevocationList>& revocations,
    const std::string& name) {
  absl::StatusOr<audit::ParsedStatement> parsed = audit::ParseStatement(text);
  if (!parsed.ok()) {
    return {kExitMalformed,
            "malformed: " + std::string(parsed.status().message())};
  }
  const audit::CertificateStatement& s = parsed->statement;
  switch (audit::CheckStatement(*parsed, key)) {
    case audit::StatementCheck::kWrongKey:
      return {kExitWrongKey, "wrong key: the statement of certificate " +
                                 s.number + " is signed by key " + s.key_id +
                                 ", not by the given key " + key.KeyId()};
    case audit::StatementCheck::kBadSignature:
      return {kExitTampered,
              "tampered: the signature of the statement of certificate " +
                  s.number + " does not verify with key " + key.KeyId() +
                  " (the statement was altered)"};
    case audit::StatementCheck::kValid:
      break;
  }
  const OfflineVerdict revocation = CheckRevocations(s, key, revocations);
  if (revocation.exit != 0) return revocation;
  std::string name_line = "holder's name not checked (no --name)";
  if (!name.empty()) {
    if (!audit::NameMatches(s, name)) {
      return {kExitNameMismatch,
              "name mismatch: the statement of certificate " + s.number +
                  " was not made for '" + name + "'"};
    }
    name_line = "holder's name matches";
  }
  std::string out;
  out += "number      " + s.number + "\n";
  out += "grade       " + s.grade +
         (s.discipline == "gomoku" ? " (gomoku)" : "") + "\n";
  out += "issued      " + s.issue_date + "\n";
  out += "agency      " + s.agency_prefix + "\n";
  out += "key         " + s.key_id + "\n";
  out += "audit log   " +
         (s.log_index >= 0 ? "entry " + std::to_string(s.log_index)
                           : std::string("no entry named")) +
         "\n";
  out += "revocation  " + revocation.text + "\n";
  out += "name        " + name_line + "\n";
  out += "valid: signature valid";
  return {0, out};
}

}  // namespace gorank::cli
