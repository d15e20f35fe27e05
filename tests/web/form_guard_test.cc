// form_guard without a server: origins, the same-origin check's table, and
// the form token's binding to key, address and time (expiry included, which
// the server tests cannot wait for).
#include "services/web/form_guard.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace gorank::web {
namespace {

TEST(FormGuardTest, OriginOfKeepsSchemeHostAndANonDefaultPort) {
  EXPECT_EQ(OriginOf("https://Rank.Example.org:443/verify?x=1"),
            "https://rank.example.org");
  EXPECT_EQ(OriginOf("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
  EXPECT_EQ(OriginOf("http://host:80"), "http://host");
  EXPECT_EQ(OriginOf("http://user@host:81/"), "http://host:81");
  EXPECT_EQ(OriginOf("http://[::1]:8080/x"), "http://[::1]:8080");
  EXPECT_EQ(OriginOf("http://[::1]"), "http://[::1]");
  EXPECT_EQ(OriginOf("null"), "");
  EXPECT_EQ(OriginOf("http://"), "");
}

TEST(FormGuardTest, SameOriginTable) {
  const std::string base = "https://rank.example.org";
  struct Case {
    RequestOrigin headers;
    bool ok;
  };
  const Case cases[] = {
      {{"", "", "127.0.0.1:8080"}, true},  // a script: the token decides
      {{"same-origin", "", "h"}, true},
      {{"none", "", "h"}, true},
      {{"cross-site", "", "h"}, false},
      {{"same-site", "", "h"}, false},
      {{"", "http://127.0.0.1:8080", "127.0.0.1:8080"}, true},
      {{"", "https://127.0.0.1:8080", "127.0.0.1:8080"},
       true},  // TLS proxy, Host kept
      {{"", "https://rank.example.org", "127.0.0.1:8080"},
       true},  // public_base_url
      {{"", "https://evil.example", "127.0.0.1:8080"}, false},
      {{"", "https://rank.example.org.evil.example", "127.0.0.1:8080"}, false},
      {{"", "http://127.0.0.1:8081", "127.0.0.1:8080"}, false},
      {{"", "null", "127.0.0.1:8080"}, false},
      {{"same-origin", "https://evil.example", "127.0.0.1:8080"}, false},
  };
  for (const Case& c : cases) {
    const absl::Status s = CheckSameOrigin(c.headers, base);
    EXPECT_EQ(s.ok(), c.ok)
        << c.headers.sec_fetch_site << " | " << c.headers.origin << " | "
        << c.headers.host << ": " << s;
    if (!c.ok) {
      EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied);
    }
  }
}

TEST(FormGuardTest, TokenIsBoundToKeyAddressAndTime) {
  const FormTokens tokens("key one");
  const int64_t t = 1764000000;
  const std::string token = tokens.Issue("127.0.0.1", t);
  EXPECT_TRUE(tokens.Check(token, "127.0.0.1", t).ok());
  EXPECT_TRUE(
      tokens.Check(token, "127.0.0.1", t + FormTokens::kValidSeconds).ok());
  EXPECT_TRUE(
      tokens.Check(token, "127.0.0.1", t - 60).ok());  // a little clock skew
  EXPECT_EQ(tokens.Check(token, "127.0.0.1", t + FormTokens::kValidSeconds + 1)
                .code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_NE(
      std::string(tokens.Check(token, "127.0.0.1", t + 13 * 3600).message())
          .find("expired"),
      std::string::npos);
  EXPECT_FALSE(
      tokens.Check(token, "127.0.0.1", t - 61).ok());  // issued "in the future"
  EXPECT_FALSE(tokens.Check(token, "127.0.0.2", t).ok());
  EXPECT_FALSE(FormTokens("key two").Check(token, "127.0.0.1", t).ok());
  EXPECT_FALSE(
      FormTokens("").Check(token, "127.0.0.1", t).ok());  // a random key
  for (const std::string& bad : std::vector<std::string>{
           "", ".", "x", std::to_string(t), std::to_string(t) + ".",
           "-1." + std::string(64, '0'), token.substr(0, token.size() - 1),
           token + "0", " " + token}) {
    const absl::Status s = tokens.Check(bad, "127.0.0.1", t);
    EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied)
        << "'" << bad << "'";
  }
}

}  // namespace
}  // namespace gorank::web
