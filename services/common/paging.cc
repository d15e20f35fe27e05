#include "services/common/paging.h"

#include "absl/status/status.h"
#include "absl/strings/escaping.h"

namespace gorank {
namespace {

// Record layout, version 1 (integers big-endian):
//   1 byte   version (1)
//   8 bytes  PageQuery::Fingerprint()
//   parts    'i' + 8 bytes, or 's' + 2 bytes length + the bytes
//   4 bytes  check: the low 32 bits of FNV-1a over everything before,
//            started from kCheckSeed
constexpr uint8_t kVersion = 1;
constexpr uint64_t kFnvOffset = 14695981039346656037ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;
constexpr uint64_t kCheckSeed = 0x676f72616e6b7067ull;  // "gorankpg"
// 9 + 8 parts of 259 bytes + 4, in base64: far more than any list needs.
constexpr size_t kMaxTokenChars = 3000;

uint64_t Fnv(uint64_t h, std::string_view bytes) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= kFnvPrime;
  }
  return h;
}

void PutBigEndian(uint64_t v, int bytes, std::string* out) {
  for (int i = bytes - 1; i >= 0; --i)
    out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t GetBigEndian(std::string_view in, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v = (v << 8) | static_cast<unsigned char>(in[at + static_cast<size_t>(i)]);
  return v;
}

absl::Status NotOurs(std::string_view why) {
  return absl::InvalidArgumentError(
      "page_token is not one this server gave (" + std::string(why) +
      "); send the next_page_token of the previous page unchanged, or no "
      "page_token for the first page");
}

// The key parts of a record whose version, fingerprint and check are
// already read: `body` is what lies between them.
absl::StatusOr<PageKey> ReadKey(std::string_view body) {
  PageKey key;
  size_t at = 0;
  while (at < body.size()) {
    const char tag = body[at++];
    if (tag == 'i') {
      if (body.size() - at < 8) return NotOurs("cut short");
      key.Add(static_cast<int64_t>(GetBigEndian(body, at, 8)));
      at += 8;
    } else if (tag == 's') {
      if (body.size() - at < 2) return NotOurs("cut short");
      const size_t n = GetBigEndian(body, at, 2);
      at += 2;
      if (n > kMaxPageKeyText || body.size() - at < n)
        return NotOurs("cut short");
      key.Add(std::string(body.substr(at, n)));
      at += n;
    } else {
      return NotOurs("unknown part");
    }
  }
  return key;
}

}  // namespace

PageQuery::PageQuery(std::string_view list) : list_(list) {
  canonical_.append(list).push_back('\0');
}

PageQuery& PageQuery::With(std::string_view name, std::string_view value) {
  // Lengths first, so that no two different lists of values run together
  // into the same bytes.
  canonical_.append(name).push_back('=');
  canonical_.append("s").append(std::to_string(value.size())).push_back(':');
  canonical_.append(value).push_back('\0');
  return *this;
}

PageQuery& PageQuery::With(std::string_view name, int64_t value) {
  canonical_.append(name).push_back('=');
  canonical_.append("i").append(std::to_string(value)).push_back('\0');
  return *this;
}

uint64_t PageQuery::Fingerprint() const { return Fnv(kFnvOffset, canonical_); }

PageKey& PageKey::Add(int64_t value) {
  parts_.emplace_back(value);
  return *this;
}

PageKey& PageKey::Add(std::string value) {
  parts_.emplace_back(std::move(value));
  return *this;
}

std::string PageKey::Shape() const {
  std::string shape;
  for (const Part& p : parts_)
    shape.push_back(std::holds_alternative<int64_t>(p) ? 'i' : 's');
  return shape;
}

std::string EncodePageToken(const PageQuery& query, const PageKey& last) {
  std::string record;
  record.push_back(static_cast<char>(kVersion));
  PutBigEndian(query.Fingerprint(), 8, &record);
  for (const PageKey::Part& p : last.parts()) {
    if (const int64_t* v = std::get_if<int64_t>(&p)) {
      record.push_back('i');
      PutBigEndian(static_cast<uint64_t>(*v), 8, &record);
    } else {
      const std::string& s = std::get<std::string>(p);
      record.push_back('s');
      PutBigEndian(s.size(), 2, &record);
      record.append(s);
    }
  }
  PutBigEndian(Fnv(kCheckSeed, record) & 0xffffffffu, 4, &record);
  return absl::WebSafeBase64Escape(record);
}

absl::StatusOr<PageRequest> ReadPage(const PageSpec& spec,
                                     const PageQuery& query,
                                     std::string_view key_shape,
                                     int32_t page_size,
                                     std::string_view page_token) {
  if (page_size < 0 || page_size > spec.max_size) {
    return absl::InvalidArgumentError(
        "page_size must be 0.." + std::to_string(spec.max_size) +
        " (0: " + std::to_string(spec.default_size) + "), got " +
        std::to_string(page_size));
  }
  PageRequest request;
  request.size = page_size == 0 ? spec.default_size : page_size;
  if (page_token.empty()) return request;
  if (page_token.size() > kMaxTokenChars) return NotOurs("too long");
  if (page_token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"
                                   "opqrstuvwxyz0123456789-_") !=
      std::string_view::npos) {
    return NotOurs("not base64url");
  }
  std::string record;
  if (!absl::WebSafeBase64Unescape(
          absl::string_view(page_token.data(), page_token.size()), &record))
    return NotOurs("not base64url");
  if (record.size() < 13) return NotOurs("cut short");
  if (static_cast<uint8_t>(record[0]) != kVersion)
    return NotOurs("unknown version");
  const size_t body_end = record.size() - 4;
  const uint64_t check = GetBigEndian(record, body_end, 4);
  if ((Fnv(kCheckSeed, std::string_view(record).substr(0, body_end)) &
       0xffffffffu) != check) {
    return NotOurs("altered");
  }
  if (GetBigEndian(record, 1, 8) != query.Fingerprint()) {
    return absl::InvalidArgumentError(
        "page_token belongs to another query than this " + query.list() +
        " (another list, or other filters): page with the filters of the "
        "request that gave it, or start again without a page_token");
  }
  std::string_view body = std::string_view(record).substr(9, body_end - 9);
  auto key = ReadKey(body);
  if (!key.ok()) return key.status();
  if (key->Shape() != key_shape) return NotOurs("another kind of key");
  request.after = std::move(*key);
  return request;
}

}  // namespace gorank
