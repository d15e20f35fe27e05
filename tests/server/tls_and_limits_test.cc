// TLS, mutual TLS for token callers, and per-client rate limits, through
// real channels to a RankdServer on 127.0.0.1:0. Keys come from
// deploy/make-tls-keys.sh (openssl), run once per test into a temp dir.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "gorank/v1/registry.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "services/server/rankd_server.h"
#include "spdlog/spdlog.h"
#include "tests/testing/temp_dir.h"

namespace gorank::server {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    spdlog::set_level(spdlog::level::warn);
    keys_ = dir_.File("tls");
    const std::string cmd = std::string("bash ") + GORANK_MAKE_TLS_KEYS + " " + keys_ +
                            " localhost agency-110 > /dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
  }

  absl::StatusOr<std::unique_ptr<RankdServer>> Start(bool mutual) {
    ServerConfig c;
    c.db_path = dir_.File("rankd.db");
    c.listen = "127.0.0.1:0";
    c.shutdown_grace_ms = 100;
    c.tls_cert_file = keys_ + "/server.pem";
    c.tls_key_file = keys_ + "/server.key";
    if (mutual) c.tls_client_ca_file = keys_ + "/ca.pem";
    return RankdServer::Start(c, &clock_);
  }

  std::shared_ptr<grpc::Channel> Channel(int port, bool with_ca, bool with_cert) {
    const std::string target = "localhost:" + std::to_string(port);
    if (!with_ca) return grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
    grpc::SslCredentialsOptions tls;
    tls.pem_root_certs = ReadAll(keys_ + "/ca.pem");
    if (with_cert) {
      tls.pem_cert_chain = ReadAll(keys_ + "/agency-110.pem");
      tls.pem_private_key = ReadAll(keys_ + "/agency-110.key");
    }
    return grpc::CreateChannel(target, grpc::SslCredentials(tls));
  }

  static grpc::Status WhoAmI(const std::shared_ptr<grpc::Channel>& channel,
                             const std::string& token, v1::WhoAmIResponse* resp) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
    return v1::TokenService::NewStub(channel)->WhoAmI(&ctx, v1::WhoAmIRequest(), resp);
  }

  testing::TempDir dir_;
  std::string keys_;
  FakeClock clock_{1717214400};
};

TEST_F(TlsTest, ClientWithoutTheCaIsRefusedAndWithItIsServed) {
  auto server = Start(/*mutual=*/false);
  ASSERT_TRUE(server.ok()) << server.status();
  const int port = (*server)->port();
  v1::WhoAmIResponse resp;
  // Plaintext against a TLS port: the handshake fails.
  EXPECT_EQ(WhoAmI(Channel(port, false, false), "", &resp).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  grpc::Status s = WhoAmI(Channel(port, true, false), "", &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.role(), v1::ROLE_PUBLIC);
  // Without mutual TLS a token works without a client certificate.
  s = WhoAmI(Channel(port, true, false), (*server)->bootstrap_secret(), &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.role(), v1::ROLE_NATIONAL_ADMIN);
}

TEST_F(TlsTest, MutualTlsRequiresACertificateForTokensOnly) {
  auto server = Start(/*mutual=*/true);
  ASSERT_TRUE(server.ok()) << server.status();
  const int port = (*server)->port();
  const std::string token = (*server)->bootstrap_secret();
  v1::WhoAmIResponse resp;
  // A token without a client certificate is refused.
  grpc::Status s = WhoAmI(Channel(port, true, false), token, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED) << s.error_message();
  // The public role still works without one.
  s = WhoAmI(Channel(port, true, false), "", &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.role(), v1::ROLE_PUBLIC);
  // With the certificate the token is served.
  s = WhoAmI(Channel(port, true, true), token, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.role(), v1::ROLE_NATIONAL_ADMIN);
}

TEST(RateLimitTest, BurstAboveTheLimitIsRefusedAndOthersAreServed) {
  spdlog::set_level(spdlog::level::warn);
  testing::TempDir dir;
  FakeClock clock(1717214400);
  ServerConfig c;
  c.db_path = dir.File("rankd.db");
  c.listen = "127.0.0.1:0";
  c.shutdown_grace_ms = 100;
  c.public_rate = 0.001;  // practically no refill during the test
  c.public_burst = 3;
  auto server = RankdServer::Start(c, &clock);
  ASSERT_TRUE(server.ok()) << server.status();
  auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string((*server)->port()),
                                     grpc::InsecureChannelCredentials());
  auto stub = v1::RankService::NewStub(channel);
  v1::ParseRankRequest req;
  req.set_text("3d");
  int ok = 0;
  grpc::Status refused;
  std::string retry_after;
  for (int i = 0; i < 5; ++i) {
    grpc::ClientContext ctx;
    v1::ParseRankResponse resp;
    grpc::Status s = stub->ParseRank(&ctx, req, &resp);
    if (s.ok()) {
      ++ok;
    } else {
      refused = s;
      auto it = ctx.GetServerTrailingMetadata().find("retry-after-ms");
      if (it != ctx.GetServerTrailingMetadata().end()) {
        retry_after = std::string(it->second.data(), it->second.size());
      }
    }
  }
  EXPECT_EQ(ok, 3);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(refused.error_message().find("retry after"), std::string::npos);
  EXPECT_FALSE(retry_after.empty());
  // A client with a token has its own bucket and is still served.
  grpc::ClientContext ctx;
  ctx.AddMetadata("authorization", "Bearer " + (*server)->bootstrap_secret());
  v1::ParseRankResponse resp;
  grpc::Status s = stub->ParseRank(&ctx, req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.rank().notation(), "3d");
}

}  // namespace
}  // namespace gorank::server
