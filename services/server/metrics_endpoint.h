// MetricsEndpoint: a small plain-HTTP server on its own port (config key
// metrics_listen) for monitoring: GET /metrics answers the Prometheus text
// format, GET /healthz answers 200 "SERVING" or 503 "NOT_SERVING" (for
// container health checks and load balancers that do not speak gRPC).
// Nothing else is served; it carries no personal data. Runs cpp-httplib on
// one background thread with a pool of two workers.
#ifndef GORANK_SERVICES_SERVER_METRICS_ENDPOINT_H_
#define GORANK_SERVICES_SERVER_METRICS_ENDPOINT_H_

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"

namespace httplib {
class Server;
}

namespace gorank::server {

class MetricsEndpoint {
 public:
  // Binds `listen` ("HOST:PORT" or "[V6]:PORT"; port 0 picks a free one)
  // and starts serving. `render` produces the /metrics body, `serving` the
  // /healthz answer; both run on the endpoint's worker threads and must be
  // thread-safe. INVALID_ARGUMENT for a malformed address; UNAVAILABLE when
  // it cannot be bound (in use, no permission).
  static absl::StatusOr<std::unique_ptr<MetricsEndpoint>> Start(
      const std::string& listen, std::function<std::string()> render,
      std::function<bool()> serving);
  ~MetricsEndpoint();  // Stop()s.
  MetricsEndpoint(const MetricsEndpoint&) = delete;
  MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;

  int port() const { return port_; }
  // Stops accepting, finishes the requests in progress, joins. Idempotent.
  void Stop();

 private:
  MetricsEndpoint();

  std::unique_ptr<httplib::Server> http_;
  std::thread thread_;
  int port_ = 0;
};

// Splits "HOST:PORT" / "[V6]:PORT" (brackets removed). INVALID_ARGUMENT
// naming `listen` when there is no host, no port, or the port is not
// 0..65535.
absl::StatusOr<std::pair<std::string, int>> SplitHostPort(
    const std::string& listen);

}  // namespace gorank::server

#endif  // GORANK_SERVICES_SERVER_METRICS_ENDPOINT_H_
