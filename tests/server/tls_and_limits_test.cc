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
    const std::string cmd =
        std::string("bash ") + GORANK_MAKE_TLS_KEYS + " " + keys_ +
        " localhost national-admin agency-110 auditor > /dev/null";
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

  // `cert`: the client certificate to present ("" for none).
  std::shared_ptr<grpc::Channel> Channel(int port, bool with_ca,
                                         const std::string& cert) {
    const std::string target = "localhost:" + std::to_string(port);
    if (!with_ca)
      return grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
    grpc::SslCredentialsOptions tls;
    tls.pem_root_certs = ReadAll(keys_ + "/ca.pem");
    if (!cert.empty()) {
      tls.pem_cert_chain = ReadAll(keys_ + "/" + cert + ".pem");
      tls.pem_private_key = ReadAll(keys_ + "/" + cert + ".key");
    }
    return grpc::CreateChannel(target, grpc::SslCredentials(tls));
  }

  static std::string CreateToken(const std::shared_ptr<grpc::Channel>& channel,
                                 const std::string& admin, v1::Role role,
                                 const std::string& prefix) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() +
                     std::chrono::seconds(10));
    ctx.AddMetadata("authorization", "Bearer " + admin);
    v1::CreateTokenRequest req;
    req.set_role(role);
    req.set_agency_prefix(prefix);
    req.set_label("tls test");
    v1::CreateTokenResponse resp;
    grpc::Status s =
        v1::TokenService::NewStub(channel)->CreateToken(&ctx, req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.secret();
  }

  static grpc::Status WhoAmI(const std::shared_ptr<grpc::Channel>& channel,
                             const std::string& token,
                             v1::WhoAmIResponse* resp) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() +
                     std::chrono::seconds(10));
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
    return v1::TokenService::NewStub(channel)->WhoAmI(&ctx, v1::WhoAmIRequest(),
                                                      resp);
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
  EXPECT_EQ(WhoAmI(Channel(port, false, ""), "", &resp).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  grpc::Status s = WhoAmI(Channel(port, true, ""), "", &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.role(), v1::ROLE_PUBLIC);
  // Without mutual TLS a token works without a client certificate.
  s = WhoAmI(Channel(port, true, ""), (*server)->bootstrap_secret(), &resp);
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
  grpc::Status s = WhoAmI(Channel(port, true, ""), token, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED)
      << s.error_message();
  // The public role still works without one.
  s = WhoAmI(Channel(port, true, ""), "", &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.role(), v1::ROLE_PUBLIC);
  // With its certificate the token is served.
  s = WhoAmI(Channel(port, true, "national-admin"), token, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.role(), v1::ROLE_NATIONAL_ADMIN);
}

TEST_F(TlsTest, MutualTlsBindsEachTokenToTheCertificateOfItsRole) {
  auto server = Start(/*mutual=*/true);
  ASSERT_TRUE(server.ok()) << server.status();
  const int port = (*server)->port();
  const std::string admin = (*server)->bootstrap_secret();
  auto admin_channel = Channel(port, true, "national-admin");
  const std::string op110 =
      CreateToken(admin_channel, admin, v1::ROLE_AGENCY_OPERATOR, "110");
  const std::string op130 =
      CreateToken(admin_channel, admin, v1::ROLE_AGENCY_OPERATOR, "130");
  const std::string auditor =
      CreateToken(admin_channel, admin, v1::ROLE_AUDITOR, "");
  v1::WhoAmIResponse resp;
  // The certificate of agency 110 does not carry the national-admin token.
  grpc::Status s = WhoAmI(Channel(port, true, "agency-110"), admin, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED)
      << s.error_message();
  EXPECT_NE(s.error_message().find("'agency-110'"), std::string::npos)
      << s.error_message();
  EXPECT_NE(s.error_message().find("'national-admin'"), std::string::npos)
      << s.error_message();
  // Nor another agency's token, nor the auditor's.
  EXPECT_EQ(
      WhoAmI(Channel(port, true, "agency-110"), op130, &resp).error_code(),
      grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(
      WhoAmI(Channel(port, true, "agency-110"), auditor, &resp).error_code(),
      grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(WhoAmI(Channel(port, true, "auditor"), op110, &resp).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // Each token with the certificate of its role is served.
  s = WhoAmI(Channel(port, true, "agency-110"), op110, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.agency_prefix(), "110");
  s = WhoAmI(Channel(port, true, "auditor"), auditor, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.role(), v1::ROLE_AUDITOR);
  // Public calls need no binding, whatever certificate is presented.
  s = WhoAmI(Channel(port, true, "agency-110"), "", &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.role(), v1::ROLE_PUBLIC);
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
  auto channel =
      grpc::CreateChannel("127.0.0.1:" + std::to_string((*server)->port()),
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
