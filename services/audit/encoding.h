// Text forms of the audit log's binary values: lowercase hex for hashes and
// standard, padded base64 (RFC 4648 section 4) for entry bytes, signatures
// and raw public keys. The decoders are strict so that one value has exactly
// one text form: that matters for files an auditor compares byte by byte.
#ifndef GORANK_SERVICES_AUDIT_ENCODING_H_
#define GORANK_SERVICES_AUDIT_ENCODING_H_

#include <string>

#include "absl/status/statusor.h"

namespace gorank::audit {

// Lowercase hex, two digits a byte. Thread-safe.
std::string HexEncode(const std::string& bytes);

// Accepts upper- or lowercase hex digits. INVALID_ARGUMENT for an odd length
// or a character that is not a hex digit (the message names its position).
absl::StatusOr<std::string> HexDecode(const std::string& text);

// Padded base64 with the "+/" alphabet, no line breaks. Thread-safe.
std::string Base64Encode(const std::string& bytes);

// INVALID_ARGUMENT when the length is not a multiple of 4, a character is
// outside the alphabet, padding appears anywhere but at the end, or the
// unused low bits of the last group are not zero (non-canonical text).
absl::StatusOr<std::string> Base64Decode(const std::string& text);

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_ENCODING_H_
