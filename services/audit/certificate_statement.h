// CertificateStatement: what a printed certificate's QR code states, signed
// by the federation's Ed25519 key, so that anyone holding the federation's
// public key can check a scanned code without the network (rankctl cert
// verify-offline) or on the verify page.
//
// The federation key is the audit log's signing key (signing_key.h): one
// key per federation signs checkpoints, statements and revocation lists, so
// a verifier keeps one public key (published at
// /.well-known/gorank/federation.pub). The first line of every signed text
// separates the uses.
//
// Payload (UTF-8, fields joined by '|', in this order):
//   number       nine digits PPPYYSSSS
//   discipline   "go" or "gomoku"
//   grade        canonical notation ("3d", "5k", "9p")
//   issue date   YYYY-MM-DD (Asia/Shanghai)
//   agency       the issuing agency's three-digit prefix
//   name digest  base64url (no padding) of the first 16 bytes of
//                SHA-256("gorank holder name v1\n" || name), name trimmed of
//                spaces and tabs as stored (no Unicode normalization: the
//                registry stores names as entered, so the verifier types the
//                name as printed)
//   key id       the signing key's KeyId() (16 hex digits)
//   log index    the 0-based audit-log index of the issuance entry, or ""
// Signed bytes: "gorank certificate statement v1\n" || payload.
// Text form: "GR1." || base64url(payload) || "." || base64url(signature),
// without padding; about 190 characters. The printed QR code carries
// <base>/verify?number=N&s=<text> (the query, not a fragment: browsers do not
// send fragments, and the verify page works without JavaScript).
//
// Thread-safe free functions over value types.
#ifndef GORANK_SERVICES_AUDIT_CERTIFICATE_STATEMENT_H_
#define GORANK_SERVICES_AUDIT_CERTIFICATE_STATEMENT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "services/audit/signing_key.h"

namespace gorank::audit {

inline constexpr char kStatementTag[] = "GR1";
inline constexpr size_t kNameDigestSize = 16;

// Value type; thread-compatible.
struct CertificateStatement {
  std::string number;
  std::string discipline;  // "go" or "gomoku"
  std::string grade;
  std::string issue_date;     // YYYY-MM-DD
  std::string agency_prefix;  // three digits
  std::string name_digest;    // kNameDigestSize raw bytes
  std::string key_id;         // 16 hex digits
  int64_t log_index = -1;     // -1: not given

  bool operator==(const CertificateStatement&) const = default;

  // The payload text described above. Thread-safe.
  std::string Payload() const;
};

// The statement's digest of `name` (see above): kNameDigestSize bytes.
std::string HolderNameDigest(const std::string& name);

// The text form of `statement` signed by `key`; statement.key_id is set to
// key.KeyId(). INVALID_ARGUMENT (naming the field) when a field breaks the
// format: number not nine digits, discipline not go/gomoku, grade empty or
// with characters other than letters and digits, date not YYYY-MM-DD,
// agency not three digits, digest not kNameDigestSize bytes.
absl::StatusOr<std::string> SignStatement(CertificateStatement statement,
                                          const SigningKey& key);

// A statement text taken apart (nothing checked against a key).
struct ParsedStatement {
  CertificateStatement statement;
  std::string signed_bytes;  // what the signature covers
  std::string signature;     // 64 raw bytes
};

// Parses the text form, or a URL that carries it as its "s" query parameter
// (percent-encoded or not). INVALID_ARGUMENT, saying what is wrong, for any
// other text: another tag, bad base64url, a payload with the wrong number of
// fields or a field that breaks the format, a signature not 64 bytes.
absl::StatusOr<ParsedStatement> ParseStatement(const std::string& text);

enum class StatementCheck {
  kValid,         // signed by `key`
  kWrongKey,      // names another key id than `key`'s
  kBadSignature,  // names `key` but the signature does not verify: altered
};

// Checks `parsed` against the federation key. Thread-safe.
StatementCheck CheckStatement(const ParsedStatement& parsed,
                              const VerifyingKey& key);

// True when `name` (as printed) is the name the statement's digest was made
// of. Compares in constant time.
bool NameMatches(const CertificateStatement& statement,
                 const std::string& name);

// Unpadded base64url (RFC 4648 section 5) and its strict inverse
// (INVALID_ARGUMENT for padding, other characters or non-zero spare bits).
std::string Base64UrlEncode(const std::string& bytes);
absl::StatusOr<std::string> Base64UrlDecode(const std::string& text);

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_CERTIFICATE_STATEMENT_H_
