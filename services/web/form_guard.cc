#include "services/web/form_guard.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

namespace gorank::web {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return s;
}

constexpr char kReload[] =
    "; open the notices page again and post the objection from there "
    "(scripts: use POST /api/v1/objections with a JSON body)";

}  // namespace

std::string OriginOf(const std::string& url) {
  const size_t sep = url.find("://");
  if (sep == std::string::npos || sep == 0) return "";
  const std::string scheme = Lower(url.substr(0, sep));
  const size_t host_at = sep + 3;
  std::string authority =
      Lower(url.substr(host_at, url.find_first_of("/?#", host_at) - host_at));
  if (const size_t at = authority.rfind('@'); at != std::string::npos) {
    authority = authority.substr(at + 1);  // no user info in an origin
  }
  if (authority.empty()) return "";
  const size_t colon = authority.rfind(':');
  if (colon != std::string::npos &&
      authority.find(']', colon) == std::string::npos) {
    const std::string port = authority.substr(colon + 1);
    if ((scheme == "http" && port == "80") ||
        (scheme == "https" && port == "443") || port.empty()) {
      authority.resize(colon);
    }
  }
  return scheme + "://" + authority;
}

absl::Status CheckSameOrigin(const RequestOrigin& r,
                             const std::string& public_base_url) {
  const std::string site = Lower(r.sec_fetch_site);
  if (!site.empty() && site != "same-origin" && site != "none") {
    return absl::PermissionDeniedError(
        "a post from another site is refused (Sec-Fetch-Site: " +
        r.sec_fetch_site + ")" + kReload);
  }
  if (r.origin.empty()) return absl::OkStatus();
  const std::string origin = OriginOf(r.origin);
  if (!origin.empty()) {
    if (!public_base_url.empty() && origin == OriginOf(public_base_url)) {
      return absl::OkStatus();
    }
    if (!r.host.empty() && (origin == OriginOf("http://" + r.host) ||
                            origin == OriginOf("https://" + r.host))) {
      return absl::OkStatus();
    }
  }
  return absl::PermissionDeniedError(
      "a post from another site is refused (Origin: " + r.origin + ")" +
      kReload);
}

FormTokens::FormTokens(std::string key) : key_(std::move(key)) {
  if (key_.empty()) {
    key_.resize(32);
    if (RAND_bytes(reinterpret_cast<unsigned char*>(key_.data()),
                   static_cast<int>(key_.size())) != 1) {
      std::abort();  // no randomness: no safe key (invariant)
    }
  }
}

std::string FormTokens::Mac(const std::string& client_addr,
                            int64_t issued_unix) const {
  const std::string message = std::to_string(issued_unix) + "|" + client_addr;
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(),
       mac, &len);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += kHex[mac[i] >> 4];
    out += kHex[mac[i] & 15];
  }
  return out;
}

std::string FormTokens::Issue(const std::string& client_addr,
                              int64_t now_unix) const {
  return std::to_string(now_unix) + "." + Mac(client_addr, now_unix);
}

absl::Status FormTokens::Check(const std::string& token,
                               const std::string& client_addr,
                               int64_t now_unix) const {
  if (token.empty()) {
    return absl::PermissionDeniedError(
        "the objection form's token (form_token) is missing" +
        std::string(kReload));
  }
  const size_t dot = token.find('.');
  int64_t issued = 0;
  const char* const end = token.data() + (dot == std::string::npos ? 0 : dot);
  const auto [ptr, ec] = std::from_chars(token.data(), end, issued);
  if (dot == std::string::npos || ec != std::errc() || ptr != end ||
      token.size() - dot - 1 != 64) {
    return absl::PermissionDeniedError(
        "the objection form's token (form_token) is malformed" +
        std::string(kReload));
  }
  const std::string want = Mac(client_addr, issued);
  if (CRYPTO_memcmp(want.data(), token.data() + dot + 1, want.size()) != 0) {
    return absl::PermissionDeniedError(
        "the objection form's token (form_token) was not issued by this page "
        "to your "
        "address " +
        client_addr + kReload);
  }
  if (issued > now_unix + 60 || now_unix - issued > kValidSeconds) {
    return absl::PermissionDeniedError(
        "the objection form has expired (it is good for " +
        std::to_string(kValidSeconds / 3600) + " hours)" + kReload);
  }
  return absl::OkStatus();
}

}  // namespace gorank::web
