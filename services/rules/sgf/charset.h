// Character-set handling for SGF records: every record is turned into UTF-8
// before it is tokenised, because the legacy Chinese encodings (GBK, GB18030,
// Big5) use the bytes of `]` and `\` as the second byte of a character and a
// byte-level tokeniser would cut values in the middle of a character.
//
// The charset is chosen in this order: the first `CA[...]` found in the raw
// bytes (SGF's declaration, read as ASCII); if there is none, UTF-8 when the
// bytes are valid UTF-8; otherwise GBK (decoded as its superset GB18030, which
// covers GB2312 too); otherwise ISO-8859-1 (SGF's default). Non-ASCII bytes
// that are valid UTF-8 are read as UTF-8 whatever CA says (stale `CA[GB2312]`
// on UTF-8 files is common; legacy text is almost never valid UTF-8), and a
// declaration the bytes do not fit falls back to the detection; either way
// the result carries a note. Conversion uses glibc iconv.
#ifndef GORANK_SERVICES_RULES_SGF_CHARSET_H_
#define GORANK_SERVICES_RULES_SGF_CHARSET_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace gorank::rules::sgf {

struct DecodedText {
  std::string utf8;  // the record as UTF-8
  std::string
      charset;  // what was used: "UTF-8", "GB18030", "BIG5", "ISO-8859-1", ...
  std::string declared;  // the CA[] value as written, empty when absent
  // Empty when the declaration was followed (or there was none and the bytes
  // were UTF-8); otherwise a sentence for the report ("no CA[] and the bytes
  // are not UTF-8: decoded as GBK/GB18030").
  std::string note;
};

// True when `bytes` is well-formed UTF-8 (no overlongs, no surrogates, nothing
// above U+10FFFF). Thread-safe.
bool IsValidUtf8(std::string_view bytes);

// Converts `bytes` from the iconv charset `from` to UTF-8.
// INVALID_ARGUMENT when the bytes are not valid in `from` (with the byte
// offset); UNIMPLEMENTED when iconv does not know `from`. Thread-safe.
absl::StatusOr<std::string> ConvertToUtf8(std::string_view bytes,
                                          const std::string& from);

// Decodes a whole SGF file as described above. Never fails on content (ISO-
// 8859-1 accepts every byte); the StatusOr is for iconv resource failures
// (INTERNAL). Thread-safe.
absl::StatusOr<DecodedText> DecodeSgfBytes(std::string_view bytes);

}  // namespace gorank::rules::sgf

#endif  // GORANK_SERVICES_RULES_SGF_CHARSET_H_
