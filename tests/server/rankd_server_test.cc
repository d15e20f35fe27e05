// RankdServer start-up and configuration: the bootstrap token exactly once,
// a busy address, and the TOML configuration's keys and errors.
#include "services/server/rankd_server.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "services/server/server_config.h"
#include "spdlog/spdlog.h"
#include "tests/testing/database_snapshot.h"
#include "tests/testing/temp_dir.h"

namespace gorank::server {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ServerConfig TestConfig(const testing::TempDir& dir) {
  ServerConfig c;
  c.db_path = dir.File("rankd.db");
  c.listen = "127.0.0.1:0";
  c.shutdown_grace_ms = 100;
  return c;
}

TEST(RankdServerTest, BootstrapTokenOnlyOnFirstStart) {
  spdlog::set_level(spdlog::level::warn);
  testing::TempDir dir;
  FakeClock clock(1717214400);
  const ServerConfig config = TestConfig(dir);
  std::string secret;
  {
    auto s = RankdServer::Start(config, &clock);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_GT((*s)->port(), 0);
    secret = (*s)->bootstrap_secret();
    EXPECT_EQ(secret.rfind("rkd_", 0), 0u);
    // Written beside the database by default, owner-only.
    EXPECT_EQ(config.AdminTokenFile(), dir.File("admin.token"));
    EXPECT_EQ(ReadAll(dir.File("admin.token")), secret + "\n");
    struct stat st;
    ASSERT_EQ(::stat(dir.File("admin.token").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_EQ(testing::TakeSnapshot((*s)->database())->Rows("tokens"), 1);
  }
  auto again = RankdServer::Start(config, &clock);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->bootstrap_secret(), "");
  EXPECT_EQ(ReadAll(dir.File("admin.token")), secret + "\n");
  EXPECT_EQ(testing::TakeSnapshot((*again)->database())->Rows("tokens"), 1);
}

// rankd turns off gRPC's default SO_REUSEPORT, so a second rankd cannot bind
// the same port beside the first (the kernel would split the clients).
TEST(RankdServerTest, BusyAddressIsUnavailable) {
  spdlog::set_level(spdlog::level::off);
  testing::TempDir a, b;
  FakeClock clock(1717214400);
  auto first = RankdServer::Start(TestConfig(a), &clock);
  ASSERT_TRUE(first.ok()) << first.status();
  ServerConfig second = TestConfig(b);
  second.listen = "127.0.0.1:" + std::to_string((*first)->port());
  auto s = RankdServer::Start(second, &clock);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kUnavailable) << s.status();
  spdlog::set_level(spdlog::level::warn);
}

TEST(ServerConfigTest, ReadsEveryKey) {
  ServerConfig c;
  absl::Status s = ParseConfigText(
      "db = \"/var/lib/rankd/rankd.db\"\nlisten = \"0.0.0.0:6000\"\n"
      "admin_token_file = \"/etc/rankd/admin.token\"\nlog_level = \"debug\"\n"
      "reader_connections = 8\nshutdown_grace_ms = 2000\nmax_request_bytes = "
      "65536\n",
      &c);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(c.db_path, "/var/lib/rankd/rankd.db");
  EXPECT_EQ(c.listen, "0.0.0.0:6000");
  EXPECT_EQ(c.AdminTokenFile(), "/etc/rankd/admin.token");
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_EQ(c.reader_connections, 8);
  EXPECT_EQ(c.shutdown_grace_ms, 2000);
  EXPECT_EQ(c.max_request_bytes, 65536);
}

TEST(ServerConfigTest, AdminTokenFileDefaultsBesideTheDatabase) {
  ServerConfig c;
  c.db_path = "data/rankd.db";
  EXPECT_EQ(c.AdminTokenFile(), "data/admin.token");
  c.db_path = "rankd.db";
  EXPECT_EQ(c.AdminTokenFile(), "admin.token");
  // A PostgreSQL URL names no folder: the working directory.
  c.db_path = "postgresql://rankd@db.example:5432/rankd";
  EXPECT_EQ(c.AdminTokenFile(), "admin.token");
  EXPECT_EQ(c.AuditKeyFile(), "audit_ed25519.pem");
  EXPECT_EQ(c.StateDirectory(), ".");
}

TEST(ServerConfigTest, PublicIndexIsAutoOnOrOff) {
  ServerConfig c;
  EXPECT_EQ(c.public_index, "auto");
  for (const char* v : {"on", "off", "auto"}) {
    ASSERT_TRUE(
        ParseConfigText(std::string("public_index = \"") + v + "\"", &c).ok());
    EXPECT_EQ(c.public_index, v);
  }
  for (const char* text : {"public_index = \"yes\"", "public_index = true"}) {
    absl::Status s = ParseConfigText(text, &c);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << text;
    EXPECT_NE(s.message().find("public_index"), absl::string_view::npos) << s;
  }
}

TEST(ServerConfigTest, RefusesWhatItDoesNotUnderstand) {
  struct Case {
    const char* text;
    const char* names;  // the message must name this
  };
  for (const Case& c :
       {Case{"colour = \"blue\"", "colour"}, Case{"listen = 5", "listen"},
        Case{"reader_connections = 0", "reader_connections"},
        Case{"reader_connections = \"4\"", "reader_connections"},
        Case{"max_request_bytes = 10", "max_request_bytes"},
        Case{"db = \"x\"\nlisten = [", "line 2"}}) {
    ServerConfig config;
    absl::Status s = ParseConfigText(c.text, &config);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.text;
    EXPECT_NE(s.message().find(c.names), absl::string_view::npos) << s;
  }
  ServerConfig config;
  EXPECT_EQ(LoadConfigFile("/nonexistent/rankd.toml", &config).code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace gorank::server
