// The web page's configuration keys: read from TOML, checked, and the
// example file (deploy/rankd.example.toml) turns the page on at 8080.
#include <string>

#include "gtest/gtest.h"
#include "services/server/server_config.h"

namespace gorank::server {
namespace {

TEST(WebConfigTest, WebKeysAreReadAndChecked) {
  ServerConfig c;
  EXPECT_TRUE(c.http_listen.empty());  // no web page unless asked for
  EXPECT_EQ(c.public_base_url, "http://127.0.0.1:8080");
  ASSERT_TRUE(ParseConfigText(R"(
http_listen = "0.0.0.0:8081"
public_base_url = "https://rank.example.org"
http_rate = 5
http_burst = 12.5
http_max_body_bytes = 4096
http_timeout_ms = 2000
http_call_deadline_ms = 500
http_max_notices = 50
)",
                              &c)
                  .ok());
  EXPECT_EQ(c.http_listen, "0.0.0.0:8081");
  EXPECT_EQ(c.public_base_url, "https://rank.example.org");
  EXPECT_EQ(c.http_rate, 5);
  EXPECT_EQ(c.http_burst, 12.5);
  EXPECT_EQ(c.http_max_body_bytes, 4096);
  EXPECT_EQ(c.http_timeout_ms, 2000);
  EXPECT_EQ(c.http_call_deadline_ms, 500);
  EXPECT_EQ(c.http_max_notices, 50);

  const absl::Status small = ParseConfigText("http_max_body_bytes = 10", &c);
  EXPECT_EQ(small.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(small.message().find("http_max_body_bytes"), std::string::npos)
      << small;
  EXPECT_EQ(ParseConfigText("http_rate = -1", &c).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseConfigText("http_listen = 8080", &c).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(WebConfigTest, ExampleFileServesThePageOnLocalhost8080) {
  ServerConfig c;
  const absl::Status s = LoadConfigFile(GORANK_EXAMPLE_CONFIG, &c);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(c.http_listen, "127.0.0.1:8080");
  EXPECT_EQ(c.http_rate, 10);
  EXPECT_EQ(c.http_burst, 30);
}

}  // namespace
}  // namespace gorank::server
