// Paging for every List RPC: one page-size rule and one page-token format.
//
// A list is read in pages ordered by a key (ids, or a date and an id, ...).
// The domain turns the request's page_size and page_token into a
// PageRequest (ReadPage), asks its repository for request.FetchLimit() rows
// after request.after (keyset paging: the repository's SQL says
// `WHERE key > after ORDER BY key LIMIT n`), and cuts the answer with
// CutPage, which sets next_page_token when another page follows.
//
// A page token is opaque to clients: base64url (no padding) of a small
// versioned record -- version 1, the fingerprint of the query (the list's
// name and every filter that shapes it, see PageQuery), the key of the last
// row given, and a check over all of it. ReadPage refuses, with
// INVALID_ARGUMENT, a token that is not base64url, of another version,
// altered (the check fails), of another list or another filter (the
// fingerprint differs), or whose key has another shape. The check finds
// mistakes and casual edits, not an adversary: a token carries nothing a
// caller could not ask for (where to start in a list it may read); who may
// read what is decided on every call from the filter, never from the token.
//
// Pure C++; thread-compatible value types.
#ifndef GORANK_SERVICES_COMMON_PAGING_H_
#define GORANK_SERVICES_COMMON_PAGING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"

namespace gorank {

// The page sizes of one RPC: page_size 0 gives `default_size`; 1..max_size
// are taken as asked; anything else is INVALID_ARGUMENT.
// REQUIRES: 0 < default_size <= max_size.
struct PageSpec {
  int default_size;
  int max_size;
};

// The query a token belongs to: the list's name and every filter value that
// changes which rows it has or their order. Two PageQuery values with the
// same list and the same values, added in the same order, have the same
// fingerprint.
class PageQuery {
 public:
  explicit PageQuery(std::string_view list);

  PageQuery& With(std::string_view name, std::string_view value);
  PageQuery& With(std::string_view name, int64_t value);

  const std::string& list() const { return list_; }
  // FNV-1a (64 bits) of the list and the values; stable across processes
  // and builds, so a token works on every rankd serving the same database.
  uint64_t Fingerprint() const;

 private:
  std::string list_;
  std::string canonical_;
};

// The key of a row in a list's order: integers and texts, compared in turn.
class PageKey {
 public:
  using Part = std::variant<int64_t, std::string>;

  PageKey() = default;
  PageKey& Add(int64_t value);
  PageKey& Add(std::string value);

  // "i" for an integer part, "s" for a text, one letter a part: "si" is a
  // text then an integer.
  std::string Shape() const;
  size_t size() const { return parts_.size(); }
  // REQUIRES: part i exists and has that type (Shape() tells).
  int64_t Int(size_t i) const { return std::get<int64_t>(parts_.at(i)); }
  const std::string& Text(size_t i) const {
    return std::get<std::string>(parts_.at(i));
  }
  const std::vector<Part>& parts() const { return parts_; }

  friend bool operator==(const PageKey& a, const PageKey& b) {
    return a.parts_ == b.parts_;
  }

 private:
  std::vector<Part> parts_;
};

// What a List request says about paging, as the client sent it.
struct PageArgs {
  int32_t page_size = 0;   // 0: the list's default
  std::string page_token;  // "" for the first page
};

// The PageArgs of a List request message (any type with page_size() and
// page_token(), as every List*Request of the protos has).
template <typename Request>
PageArgs PageArgsOf(const Request& request) {
  return PageArgs{request.page_size(), request.page_token()};
}

// A decoded request for one page.
struct PageRequest {
  int size = 0;                  // rows to give: 1..spec.max_size
  std::optional<PageKey> after;  // nullopt: from the start of the list
  // Rows to ask the repository for: one more than the page tells whether
  // another page follows.
  int FetchLimit() const { return size + 1; }
};

// Texts in a key are at most this long (a certificate number is 9 bytes).
inline constexpr size_t kMaxPageKeyText = 256;

// The page `page_size` and `page_token` ask for in `query`, whose keys have
// `key_shape` (see PageKey::Shape). INVALID_ARGUMENT, naming the field and
// what to send instead: page_size outside 0..spec.max_size; page_token not
// one this server gave (not base64url, another version, altered, a key of
// another shape) or given for another query (another list or filters).
absl::StatusOr<PageRequest> ReadPage(const PageSpec& spec,
                                     const PageQuery& query,
                                     std::string_view key_shape,
                                     int32_t page_size,
                                     std::string_view page_token);

inline absl::StatusOr<PageRequest> ReadPage(const PageSpec& spec,
                                            const PageQuery& query,
                                            std::string_view key_shape,
                                            const PageArgs& args) {
  return ReadPage(spec, query, key_shape, args.page_size, args.page_token);
}

// The token of the page after the row whose key is `last`, in `query`.
// REQUIRES: every text of `last` is at most kMaxPageKeyText bytes.
std::string EncodePageToken(const PageQuery& query, const PageKey& last);

// One page of rows and the token of the next ("" on the last page).
template <typename Row>
struct Page {
  std::vector<Row> rows;
  std::string next_page_token;
};

// Cuts `fetched` (at most request.FetchLimit() rows in the list's order,
// starting after request.after) to request.size rows; when more were
// fetched, next_page_token names the last row kept. `key_of(const Row&)`
// returns the PageKey of a row.
template <typename Row, typename KeyOf>
Page<Row> CutPage(std::vector<Row> fetched, const PageRequest& request,
                  const PageQuery& query, KeyOf key_of) {
  Page<Row> page;
  if (fetched.size() > static_cast<size_t>(request.size)) {
    fetched.resize(static_cast<size_t>(request.size));
    page.next_page_token = EncodePageToken(query, key_of(fetched.back()));
  }
  page.rows = std::move(fetched);
  return page;
}

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_PAGING_H_
