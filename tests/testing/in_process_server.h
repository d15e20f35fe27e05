// InProcessServer: a whole rankd (server::RankdServer::Start) inside the test
// binary, on 127.0.0.1:0 and a temp database (an SQLite file, or a fresh
// PostgreSQL schema in the "pg." runs: TestDatabaseUrl), reached through a
// real TCP gRPC channel, with a FakeClock (default 2024-06-01 12:00
// Asia/Shanghai) and, by default, one token of every kind: the bootstrap
// national admin, operators of 110 and 130, an auditor and a revoked auditor
// token. The one in-process server fixture for every test folder.
#ifndef GORANK_TESTS_TESTING_IN_PROCESS_SERVER_H_
#define GORANK_TESTS_TESTING_IN_PROCESS_SERVER_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "services/common/clock.h"
#include "services/server/rankd_server.h"
#include "tests/testing/database_snapshot.h"
#include "tests/testing/temp_dir.h"

namespace gorank::testing {

// Changes `config` before the start; `dir` is the server's temp folder.
using ConfigAdjuster =
    std::function<void(server::ServerConfig& config, const std::string& dir)>;

struct InProcessOptions {
  // The FakeClock's date (at 12:00 Asia/Shanghai); nullopt: the system clock.
  std::optional<Date> date = Date{2024, 6, 1};
  // Also make op110, op130, auditor and revoked (admin is always there).
  bool tokens = true;
  // Set on the config when given (ServerConfig's defaults otherwise).
  std::optional<int> shutdown_grace_ms = 1000;
  std::optional<int> reader_connections = 2;
  // spdlog at warn before the start (one log line per call is noise).
  bool quiet = true;
  // Abort the test binary when the server cannot start or the tokens cannot
  // be made (nothing could be tested); when false, status() tells.
  bool die_on_error = true;
  ConfigAdjuster adjust;
};

class InProcessServer {
 public:
  // The defaults above.
  InProcessServer();
  // The defaults with `adjust` applied to the configuration.
  explicit InProcessServer(const ConfigAdjuster& adjust);
  explicit InProcessServer(const InProcessOptions& options);
  ~InProcessServer();  // Shutdown()
  InProcessServer(const InProcessServer&) = delete;
  InProcessServer& operator=(const InProcessServer&) = delete;

  // Stops the server and starts it again on the same database, files and
  // configuration (a new channel; the tokens made before stay valid).
  absl::Status Restart();

  // OK once the server serves (and the tokens are made).
  const absl::Status& status() const { return status_; }
  std::shared_ptr<grpc::Channel> channel() { return channel_; }
  // nullptr when the start failed.
  server::RankdServer* server() { return server_.get(); }
  FakeClock& clock() { return clock_; }
  // The server's temp folder (admin.token, audit_ed25519.pem live there).
  const std::string& dir() const { return dir_.path(); }
  const TempDir& temp_dir() const { return dir_; }

  // A client context with a 10 s deadline and, unless `bearer` is empty,
  // "authorization: Bearer <bearer>".
  static std::unique_ptr<grpc::ClientContext> Context(
      const std::string& bearer);
  // The same with a raw authorization header value.
  static std::unique_ptr<grpc::ClientContext> RawContext(
      const std::string& header);

  absl::StatusOr<DatabaseSnapshot> Snapshot() {
    return TakeSnapshot(server_->database());
  }

  std::string admin;  // national admin (the bootstrap token)
  std::string op110;  // agency operator of 110
  std::string op130;  // agency operator of 130
  std::string auditor;
  std::string revoked;  // an auditor token, revoked
  int64_t admin_token_id = 0;
  int64_t revoked_token_id = 0;

 private:
  absl::Status Start(const InProcessOptions& options);
  absl::Status MakeTokens();

  absl::Status Serve();

  TempDir dir_;
  FakeClock clock_;
  bool fake_clock_ = true;
  server::ServerConfig config_;
  std::unique_ptr<server::RankdServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  absl::Status status_;
};

}  // namespace gorank::testing

#endif  // GORANK_TESTS_TESTING_IN_PROCESS_SERVER_H_
