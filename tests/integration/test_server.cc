#include "tests/integration/test_server.h"

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "gorank/v1/registry.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "spdlog/spdlog.h"
#include "tests/testing/test_database.h"

namespace gorank::integration {
namespace {

[[noreturn]] void Die(const std::string& what) {
  std::cerr << "TestServer: " << what << "\n";
  std::abort();
}

std::string MakeToken(v1::TokenService::Stub& stub, const std::string& admin,
                      v1::Role role, const std::string& prefix,
                      int64_t* id = nullptr) {
  v1::CreateTokenRequest req;
  req.set_role(role);
  req.set_agency_prefix(prefix);
  req.set_label("integration test");
  v1::CreateTokenResponse resp;
  grpc::Status s =
      stub.CreateToken(TestServer::Context(admin).get(), req, &resp);
  if (!s.ok()) Die("CreateToken: " + s.error_message());
  if (id) *id = resp.token().id();
  return resp.secret();
}

}  // namespace

TestServer::TestServer() : TestServer(nullptr) {}

TestServer::TestServer(const std::function<void(server::ServerConfig&,
                                                const std::string&)>& adjust) {
  spdlog::set_level(
      spdlog::level::warn);  // one log line per call is noise here
  clock_.SetDate(Date{2024, 6, 1});
  server::ServerConfig config;
  config.db_path = gorank::testing::TestDatabaseUrl(dir_);
  config.listen = "127.0.0.1:0";
  // Named, not derived from db_path: a PostgreSQL URL has no folder.
  config.admin_token_file = dir_.File("admin.token");
  config.audit_key_file = dir_.File("audit_ed25519.pem");
  config.shutdown_grace_ms = 1000;
  config.reader_connections = 2;
  if (adjust) adjust(config, dir_.path());
  auto started = server::RankdServer::Start(config, &clock_);
  if (!started.ok()) Die("Start: " + started.status().ToString());
  server_ = std::move(*started);
  if (server_->port() <= 0) Die("no port bound");
  channel_ = grpc::CreateChannel("127.0.0.1:" + std::to_string(server_->port()),
                                 grpc::InsecureChannelCredentials());
  admin = server_->bootstrap_secret();
  if (admin.empty()) Die("no bootstrap token on a new database");

  auto tokens = v1::TokenService::NewStub(channel_);
  v1::WhoAmIResponse me;
  grpc::Status s =
      tokens->WhoAmI(Context(admin).get(), v1::WhoAmIRequest(), &me);
  if (!s.ok()) Die("WhoAmI: " + s.error_message());
  admin_token_id = me.token_id();
  op110 = MakeToken(*tokens, admin, v1::ROLE_AGENCY_OPERATOR, "110");
  op130 = MakeToken(*tokens, admin, v1::ROLE_AGENCY_OPERATOR, "130");
  auditor = MakeToken(*tokens, admin, v1::ROLE_AUDITOR, "");
  revoked = MakeToken(*tokens, admin, v1::ROLE_AUDITOR, "", &revoked_token_id);
  v1::RevokeTokenRequest revoke;
  revoke.set_token_id(revoked_token_id);
  v1::RevokeTokenResponse revoked_resp;
  s = tokens->RevokeToken(Context(admin).get(), revoke, &revoked_resp);
  if (!s.ok()) Die("RevokeToken: " + s.error_message());
}

TestServer::~TestServer() {
  channel_.reset();
  if (server_) server_->Shutdown();
}

std::unique_ptr<grpc::ClientContext> TestServer::RawContext(
    const std::string& header) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(10));
  if (!header.empty()) ctx->AddMetadata("authorization", header);
  return ctx;
}

std::unique_ptr<grpc::ClientContext> TestServer::Context(
    const std::string& bearer) {
  return RawContext(bearer.empty() ? "" : "Bearer " + bearer);
}

}  // namespace gorank::integration
