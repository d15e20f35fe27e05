// TestServer: a real rankd (RankdServer::Start) on 127.0.0.1:0 with a temp
// database and a FakeClock at 2024-06-01 12:00 Asia/Shanghai, reached
// through a real TCP gRPC channel, with one token of every kind: the
// bootstrap national admin, operators of 110 and 130, an auditor, and a
// revoked auditor token.
#ifndef GORANK_TESTS_INTEGRATION_TEST_SERVER_H_
#define GORANK_TESTS_INTEGRATION_TEST_SERVER_H_

#include <functional>
#include <memory>
#include <string>

#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "services/common/clock.h"
#include "services/server/rankd_server.h"
#include "tests/testing/database_snapshot.h"
#include "tests/testing/temp_dir.h"

namespace gorank::integration {

class TestServer {
 public:
  // Aborts the test binary when the server cannot start or the tokens
  // cannot be made (nothing could be tested).
  TestServer();
  // The same, with `adjust` applied to the configuration before the start
  // (e.g. another ratings_config_file); `dir` is the server's temp folder.
  explicit TestServer(
      const std::function<void(server::ServerConfig&, const std::string& dir)>&
          adjust);
  ~TestServer();

  std::shared_ptr<grpc::Channel> channel() { return channel_; }
  server::RankdServer* server() { return server_.get(); }
  FakeClock& clock() { return clock_; }
  // The server's temp folder (admin.token, audit_ed25519.pem live there).
  const std::string& dir() const { return dir_.path(); }

  // A client context with a 10 s deadline and, unless `bearer` is empty,
  // "authorization: Bearer <bearer>".
  static std::unique_ptr<grpc::ClientContext> Context(
      const std::string& bearer);
  // The same with a raw authorization header value.
  static std::unique_ptr<grpc::ClientContext> RawContext(
      const std::string& header);

  absl::StatusOr<testing::DatabaseSnapshot> Snapshot() {
    return testing::TakeSnapshot(server_->database());
  }

  std::string admin;  // national admin (the bootstrap token)
  std::string op110;  // agency operator of 110
  std::string op130;  // agency operator of 130
  std::string auditor;
  std::string revoked;  // an auditor token, revoked
  int64_t admin_token_id = 0;
  int64_t revoked_token_id = 0;

 private:
  testing::TempDir dir_;
  FakeClock clock_;
  std::unique_ptr<server::RankdServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
};

}  // namespace gorank::integration

#endif  // GORANK_TESTS_INTEGRATION_TEST_SERVER_H_
