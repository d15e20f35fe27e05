#include "services/audit/certificate_statement.h"

#include <openssl/crypto.h>

#include <charconv>
#include <vector>

#include "services/audit/encoding.h"
#include "services/audit/merkle.h"
#include "services/common/status_macros.h"

namespace gorank::audit {
namespace {

constexpr char kSignedPrefix[] = "gorank certificate statement v1\n";
constexpr char kNamePrefix[] = "gorank holder name v1\n";
constexpr size_t kFields = 8;

bool AllDigits(const std::string& s, size_t n) {
  if (s.size() != n) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool IsDate(const std::string& s) {
  return s.size() == 10 && s[4] == '-' && s[7] == '-' &&
         AllDigits(s.substr(0, 4), 4) && AllDigits(s.substr(5, 2), 2) &&
         AllDigits(s.substr(8, 2), 2);
}

bool IsGrade(const std::string& s) {
  if (s.empty() || s.size() > 8) return false;
  for (char c : s) {
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z');
    if (!alnum) return false;
  }
  return true;
}

bool IsKeyId(const std::string& s) {
  if (s.size() != 16) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

absl::Status CheckFields(const CertificateStatement& s) {
  auto bad = [](const std::string& what) {
    return absl::InvalidArgumentError("statement " + what);
  };
  if (!AllDigits(s.number, 9)) return bad("number must be nine digits");
  if (s.discipline != "go" && s.discipline != "gomoku") {
    return bad("discipline must be go or gomoku");
  }
  if (!IsGrade(s.grade)) return bad("grade must be a notation like 3d");
  if (!IsDate(s.issue_date)) return bad("issue date must be YYYY-MM-DD");
  if (!AllDigits(s.agency_prefix, 3)) return bad("agency must be 3 digits");
  if (s.name_digest.size() != kNameDigestSize) {
    return bad("name digest must be " + std::to_string(kNameDigestSize) +
               " bytes");
  }
  if (!IsKeyId(s.key_id)) return bad("key id must be 16 hex digits");
  if (s.log_index < -1) return bad("log index must not be negative");
  return absl::OkStatus();
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == sep) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The value of the "s" parameter of a URL's query, percent-decoded; the
// text itself when it is not a URL.
std::string StatementPart(const std::string& text) {
  // A scanner's line (zbarimg ends it with a newline) or a pasted one.
  const size_t b = text.find_first_not_of(" \t\r\n");
  const std::string t =
      b == std::string::npos
          ? ""
          : text.substr(b, text.find_last_not_of(" \t\r\n") - b + 1);
  const size_t q = t.find('?');
  if (t.rfind(kStatementTag, 0) == 0 || q == std::string::npos) return t;
  std::string query = t.substr(q + 1);
  query = query.substr(0, query.find('#'));
  for (const std::string& pair : Split(query, '&')) {
    if (pair.rfind("s=", 0) != 0) continue;
    std::string out;
    const std::string v = pair.substr(2);
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] == '%' && i + 2 < v.size() && HexValue(v[i + 1]) >= 0 &&
          HexValue(v[i + 2]) >= 0) {
        out += static_cast<char>(HexValue(v[i + 1]) * 16 + HexValue(v[i + 2]));
        i += 2;
      } else {
        out += v[i];
      }
    }
    return out;
  }
  return "";
}

}  // namespace

std::string CertificateStatement::Payload() const {
  return number + "|" + discipline + "|" + grade + "|" + issue_date + "|" +
         agency_prefix + "|" + Base64UrlEncode(name_digest) + "|" + key_id +
         "|" + (log_index >= 0 ? std::to_string(log_index) : "");
}

std::string HolderNameDigest(const std::string& name) {
  return Sha256(kNamePrefix + Trim(name)).substr(0, kNameDigestSize);
}

absl::StatusOr<std::string> SignStatement(CertificateStatement statement,
                                          const SigningKey& key) {
  statement.key_id = key.KeyId();
  GORANK_RETURN_IF_ERROR(CheckFields(statement));
  const std::string payload = statement.Payload();
  return std::string(kStatementTag) + "." + Base64UrlEncode(payload) + "." +
         Base64UrlEncode(key.Sign(kSignedPrefix + payload));
}

absl::StatusOr<ParsedStatement> ParseStatement(const std::string& text) {
  const std::string t = StatementPart(text);
  const std::vector<std::string> parts = Split(t, '.');
  if (parts.size() != 3 || parts[0] != kStatementTag) {
    return absl::InvalidArgumentError(
        "not a certificate statement: expected GR1.<payload>.<signature> "
        "(or a verify URL with s=GR1...)");
  }
  absl::StatusOr<std::string> payload = Base64UrlDecode(parts[1]);
  if (!payload.ok()) {
    return absl::InvalidArgumentError("statement payload is not base64url");
  }
  absl::StatusOr<std::string> sig = Base64UrlDecode(parts[2]);
  if (!sig.ok() || sig->size() != kEd25519SignatureSize) {
    return absl::InvalidArgumentError(
        "statement signature is not 64 bytes of base64url");
  }
  const std::vector<std::string> f = Split(*payload, '|');
  if (f.size() != kFields) {
    return absl::InvalidArgumentError(
        "statement payload has " + std::to_string(f.size()) +
        " fields, expected " + std::to_string(kFields));
  }
  ParsedStatement p;
  CertificateStatement& s = p.statement;
  s.number = f[0];
  s.discipline = f[1];
  s.grade = f[2];
  s.issue_date = f[3];
  s.agency_prefix = f[4];
  absl::StatusOr<std::string> digest = Base64UrlDecode(f[5]);
  if (!digest.ok()) {
    return absl::InvalidArgumentError("statement name digest is not base64url");
  }
  s.name_digest = *digest;
  s.key_id = f[6];
  if (!f[7].empty()) {
    auto [end, ec] =
        std::from_chars(f[7].data(), f[7].data() + f[7].size(), s.log_index);
    if (ec != std::errc() || end != f[7].data() + f[7].size() ||
        s.log_index < 0 || f[7][0] == '+') {
      return absl::InvalidArgumentError(
          "statement log index must be a decimal number");
    }
  }
  GORANK_RETURN_IF_ERROR(CheckFields(s));
  // One statement, one text: a re-encoded payload must be what was signed.
  if (s.Payload() != *payload) {
    return absl::InvalidArgumentError("statement payload is not canonical");
  }
  p.signed_bytes = kSignedPrefix + *payload;
  p.signature = *sig;
  return p;
}

StatementCheck CheckStatement(const ParsedStatement& parsed,
                              const VerifyingKey& key) {
  if (parsed.statement.key_id != key.KeyId()) return StatementCheck::kWrongKey;
  return key.Verify(parsed.signed_bytes, parsed.signature)
             ? StatementCheck::kValid
             : StatementCheck::kBadSignature;
}

bool NameMatches(const CertificateStatement& statement,
                 const std::string& name) {
  const std::string d = HolderNameDigest(name);
  return statement.name_digest.size() == d.size() && !Trim(name).empty() &&
         CRYPTO_memcmp(d.data(), statement.name_digest.data(), d.size()) == 0;
}

std::string Base64UrlEncode(const std::string& bytes) {
  std::string s = Base64Encode(bytes);
  while (!s.empty() && s.back() == '=') s.pop_back();
  for (char& c : s) {
    if (c == '+') c = '-';
    if (c == '/') c = '_';
  }
  return s;
}

absl::StatusOr<std::string> Base64UrlDecode(const std::string& text) {
  std::string s = text;
  for (char& c : s) {
    if (c == '-') {
      c = '+';
    } else if (c == '_') {
      c = '/';
    } else if (c == '+' || c == '/' || c == '=') {
      return absl::InvalidArgumentError("not base64url: '+', '/' or '='");
    }
  }
  if (s.size() % 4 == 1) return absl::InvalidArgumentError("bad length");
  while (s.size() % 4 != 0) s += '=';
  return Base64Decode(s);
}

}  // namespace gorank::audit
