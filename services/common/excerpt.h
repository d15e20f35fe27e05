// Short excerpts of outside input for error messages: an error never carries
// more than a few dozen bytes of what the client sent (a message travels in a
// gRPC trailer, and a big one never reaches the client).
#ifndef GORANK_SERVICES_COMMON_EXCERPT_H_
#define GORANK_SERVICES_COMMON_EXCERPT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace gorank {

inline constexpr size_t kExcerptBytes = 40;

// The longest prefix of `text` of at most `max_bytes` bytes that does not end
// inside a UTF-8 character.
inline std::string_view Utf8Prefix(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t cut = max_bytes;
  // Back up over continuation bytes (10xxxxxx) to a character start.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
    --cut;
  return text.substr(0, cut);
}

// "'text'" when it fits in `max_bytes`, else "'<prefix>...' (N bytes)".
inline std::string QuotedExcerpt(std::string_view text,
                                 size_t max_bytes = kExcerptBytes) {
  if (text.size() <= max_bytes) return "'" + std::string(text) + "'";
  return "'" + std::string(Utf8Prefix(text, max_bytes)) + "...' (" +
         std::to_string(text.size()) + " bytes)";
}

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_EXCERPT_H_
