#include "tests/testing/in_process_server.h"

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "gorank/v1/registry.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "spdlog/spdlog.h"
#include "tests/testing/test_database.h"

namespace gorank::testing {
namespace {

absl::StatusOr<std::string> MakeToken(v1::TokenService::Stub& stub,
                                      const std::string& admin, v1::Role role,
                                      const std::string& prefix,
                                      int64_t* id = nullptr) {
  v1::CreateTokenRequest req;
  req.set_role(role);
  req.set_agency_prefix(prefix);
  req.set_label("integration test");
  v1::CreateTokenResponse resp;
  grpc::Status s =
      stub.CreateToken(InProcessServer::Context(admin).get(), req, &resp);
  if (!s.ok()) return absl::InternalError("CreateToken: " + s.error_message());
  if (id) *id = resp.token().id();
  return resp.secret();
}

}  // namespace

InProcessServer::InProcessServer() : InProcessServer(InProcessOptions()) {}

InProcessServer::InProcessServer(const ConfigAdjuster& adjust)
    : InProcessServer([&] {
        InProcessOptions options;
        options.adjust = adjust;
        return options;
      }()) {}

InProcessServer::InProcessServer(const InProcessOptions& options) {
  status_ = Start(options);
  if (!status_.ok() && options.die_on_error) {
    std::cerr << "InProcessServer: " << status_ << "\n";
    std::abort();
  }
}

absl::Status InProcessServer::Start(const InProcessOptions& options) {
  if (options.quiet) spdlog::set_level(spdlog::level::warn);
  if (options.date) clock_.SetDate(*options.date);
  server::ServerConfig config;
  config.db_path = TestDatabaseUrl(dir_);
  config.listen = "127.0.0.1:0";
  // Named, not derived from db_path: a PostgreSQL URL has no folder.
  config.admin_token_file = dir_.File("admin.token");
  config.audit_key_file = dir_.File("audit_ed25519.pem");
  if (options.shutdown_grace_ms) {
    config.shutdown_grace_ms = *options.shutdown_grace_ms;
  }
  if (options.reader_connections) {
    config.reader_connections = *options.reader_connections;
  }
  if (options.adjust) options.adjust(config, dir_.path());
  config_ = config;
  fake_clock_ = options.date.has_value();
  if (absl::Status s = Serve(); !s.ok()) return s;
  admin = server_->bootstrap_secret();
  if (admin.empty()) {
    return absl::InternalError("no bootstrap token on a new database");
  }
  return options.tokens ? MakeTokens() : absl::OkStatus();
}

absl::Status InProcessServer::Serve() {
  auto started = fake_clock_ ? server::RankdServer::Start(config_, &clock_)
                             : server::RankdServer::Start(config_);
  if (!started.ok()) {
    return absl::Status(started.status().code(),
                        "rankd did not start: " + started.status().ToString());
  }
  server_ = std::move(*started);
  if (server_->port() <= 0) return absl::InternalError("no port bound");
  channel_ = grpc::CreateChannel("127.0.0.1:" + std::to_string(server_->port()),
                                 grpc::InsecureChannelCredentials());
  return absl::OkStatus();
}

absl::Status InProcessServer::Restart() {
  channel_.reset();
  if (server_) server_->Shutdown();
  server_.reset();
  status_ = Serve();
  return status_;
}

absl::Status InProcessServer::MakeTokens() {
  auto tokens = v1::TokenService::NewStub(channel_);
  v1::WhoAmIResponse me;
  grpc::Status s =
      tokens->WhoAmI(Context(admin).get(), v1::WhoAmIRequest(), &me);
  if (!s.ok()) return absl::InternalError("WhoAmI: " + s.error_message());
  admin_token_id = me.token_id();
  absl::StatusOr<std::string> made =
      MakeToken(*tokens, admin, v1::ROLE_AGENCY_OPERATOR, "110");
  if (!made.ok()) return made.status();
  op110 = *made;
  made = MakeToken(*tokens, admin, v1::ROLE_AGENCY_OPERATOR, "130");
  if (!made.ok()) return made.status();
  op130 = *made;
  made = MakeToken(*tokens, admin, v1::ROLE_AUDITOR, "");
  if (!made.ok()) return made.status();
  auditor = *made;
  made = MakeToken(*tokens, admin, v1::ROLE_AUDITOR, "", &revoked_token_id);
  if (!made.ok()) return made.status();
  revoked = *made;
  v1::RevokeTokenRequest revoke;
  revoke.set_token_id(revoked_token_id);
  v1::RevokeTokenResponse revoked_resp;
  s = tokens->RevokeToken(Context(admin).get(), revoke, &revoked_resp);
  if (!s.ok()) return absl::InternalError("RevokeToken: " + s.error_message());
  return absl::OkStatus();
}

InProcessServer::~InProcessServer() {
  channel_.reset();
  if (server_) server_->Shutdown();
}

std::unique_ptr<grpc::ClientContext> InProcessServer::RawContext(
    const std::string& header) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(10));
  if (!header.empty()) ctx->AddMetadata("authorization", header);
  return ctx;
}

std::unique_ptr<grpc::ClientContext> InProcessServer::Context(
    const std::string& bearer) {
  return RawContext(bearer.empty() ? "" : "Bearer " + bearer);
}

}  // namespace gorank::testing
