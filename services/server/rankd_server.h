// RankdServer: the whole service assembled — database, repositories, domain
// objects, gRPC handlers, health and reflection — started on a listening
// address. Used by rankd's main and by the in-process integration tests.
#ifndef GORANK_SERVICES_SERVER_RANKD_SERVER_H_
#define GORANK_SERVICES_SERVER_RANKD_SERVER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/channel.h"
#include "grpcpp/server.h"
#include "services/common/clock.h"
#include "services/server/server_config.h"

namespace gorank::storage {
class Database;
}
namespace gorank::web {
class WebServer;
}

namespace gorank::server {

class RankdServer {
 public:
  // Opens and migrates the database, creates the bootstrap admin token on
  // first start (written to config.AdminTokenFile(), mode 0600), and starts
  // serving. `clock` must outlive the server. UNAVAILABLE when the address
  // cannot be bound; the database's errors otherwise.
  static absl::StatusOr<std::unique_ptr<RankdServer>> Start(
      const ServerConfig& config, const Clock* clock = SystemClock::Get());
  ~RankdServer();

  // The port actually bound (useful with "127.0.0.1:0").
  int port() const { return port_; }
  // The public web page's port (config http_listen), 0 when off.
  int http_port() const { return http_port_; }
  // A channel to this server that bypasses the network.
  std::shared_ptr<grpc::Channel> InProcessChannel();
  // The bootstrap token's secret if this start created it, else "".
  const std::string& bootstrap_secret() const { return bootstrap_secret_; }
  // The open database; nullptr after Shutdown().
  storage::Database* database();
  // The metrics endpoint's port (config metrics_listen), 0 when off.
  int metrics_port() const { return metrics_port_; }
  // Runs the storage health probe once now (it also runs every
  // health_probe_ms) and returns whether rankd reports SERVING.
  bool ProbeHealthNow();

  // Reports NOT_SERVING, stops accepting calls, lets in-flight calls finish
  // (up to the configured grace), then closes the database cleanly.
  // Idempotent.
  void Shutdown();

  // What the server owns (defined and wired module by module in
  // rankd_server.cc only).
  struct Parts;

 private:
  RankdServer() = default;
  // The health probe and the metrics endpoint (after the gRPC server).
  absl::Status StartOperations(const ServerConfig& config);

  std::unique_ptr<Parts> parts_;
  std::unique_ptr<grpc::Server> server_;
  // The public web page (calls server_ in-process): started after it,
  // stopped before it.
  std::unique_ptr<web::WebServer> web_;
  int http_port_ = 0;
  int port_ = 0;
  int metrics_port_ = 0;
  int grace_ms_ = 0;
  std::string bootstrap_secret_;
  bool shut_down_ = false;
};

}  // namespace gorank::server

#endif  // GORANK_SERVICES_SERVER_RANKD_SERVER_H_
