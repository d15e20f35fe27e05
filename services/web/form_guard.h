// Cross-site request checks of the public web page's POSTs (the objection
// form and the JSON API). A page elsewhere can make a visitor's browser post
// the objection form (a plain HTML form, or fetch() with a text/plain body):
// the objection then comes from the visitor's address, past the per-address
// limits, as if the visitor had written it. Two checks refuse that:
//   - CheckSameOrigin: the browser's own account of where a request comes
//     from (Sec-Fetch-Site, Origin) must be this page;
//   - FormTokens: the objection form carries a token that this server issued
//     with the page, to this client address, a short while ago (HMAC-SHA256
//     of a server key; no cookie, nothing stored).
// Pure (no sockets, no gRPC); thread-safe (FormTokens is immutable).
#ifndef GORANK_SERVICES_WEB_FORM_GUARD_H_
#define GORANK_SERVICES_WEB_FORM_GUARD_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace gorank::web {

// The headers of a POST that CheckSameOrigin reads ("" when absent).
struct RequestOrigin {
  std::string sec_fetch_site;  // Sec-Fetch-Site
  std::string origin;          // Origin
  std::string host;            // Host
};

// OK when nothing shows a cross-site request; PERMISSION_DENIED, naming the
// header and its value, when Sec-Fetch-Site is present and neither
// "same-origin" nor "none", or when Origin is present and is neither the
// origin of `public_base_url` (scheme://host[:port], "" to skip) nor
// http(s)://<Host> ("null" never matches). A request with neither header (a
// script, curl, an old browser) passes: the form's token and the JSON API's
// Content-Type guard those.
absl::Status CheckSameOrigin(const RequestOrigin& request,
                             const std::string& public_base_url);

// The origin of a URL: lower-case scheme and host, the port only when it is
// not the scheme's default ("https://Rank.Example:443/x" ->
// "https://rank.example").
// "" when `url` has no "scheme://host".
std::string OriginOf(const std::string& url);

class FormTokens {
 public:
  // How long a shown form stays good, seconds.
  static constexpr int64_t kValidSeconds = 12 * 3600;

  // `key`: the HMAC key; empty: 32 random bytes (tokens then die with the
  // process, and each instance of several checks only its own).
  explicit FormTokens(std::string key);

  // A token for a form shown at `now_unix` to the client at `client_addr`:
  // "<now_unix>.<64 hex digits>".
  std::string Issue(const std::string& client_addr, int64_t now_unix) const;

  // OK when `token` was issued by this key to `client_addr` within the last
  // kValidSeconds (and not more than a minute ahead of `now_unix`);
  // otherwise PERMISSION_DENIED saying which (missing, malformed, expired,
  // or not issued to this address) and what to do.
  absl::Status Check(const std::string& token, const std::string& client_addr,
                     int64_t now_unix) const;

 private:
  std::string Mac(const std::string& client_addr, int64_t issued_unix) const;

  std::string key_;
};

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_FORM_GUARD_H_
