#include "services/server/metrics_endpoint.h"

#include <sys/socket.h>

#include <atomic>
#include <charconv>
#include <utility>

#include "httplib.h"
#include "services/common/status_macros.h"

namespace gorank::server {

absl::StatusOr<std::pair<std::string, int>> SplitHostPort(
    const std::string& listen) {
  const size_t colon = listen.rfind(':');
  auto bad = [&] {
    return absl::InvalidArgumentError(
        "metrics_listen '" + listen +
        "' must read HOST:PORT, e.g. 127.0.0.1:9464");
  };
  if (colon == std::string::npos || colon == 0 || colon + 1 == listen.size())
    return bad();
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  int port = -1;
  const char* first = listen.data() + colon + 1;
  const char* last = listen.data() + listen.size();
  const auto [ptr, ec] = std::from_chars(first, last, port);
  if (host.empty() || ec != std::errc() || ptr != last || port < 0 ||
      port > 65535) {
    return bad();
  }
  return std::make_pair(host, port);
}

MetricsEndpoint::MetricsEndpoint()
    : http_(std::make_unique<httplib::Server>()) {}

MetricsEndpoint::~MetricsEndpoint() { Stop(); }

absl::StatusOr<std::unique_ptr<MetricsEndpoint>> MetricsEndpoint::Start(
    const std::string& listen, std::function<std::string()> render,
    std::function<bool()> serving) {
  GORANK_ASSIGN_OR_RETURN(auto host_port, SplitHostPort(listen));
  std::unique_ptr<MetricsEndpoint> e(new MetricsEndpoint());
  httplib::Server& http = *e->http_;
  http.new_task_queue = [] { return new httplib::ThreadPool(2); };
  // httplib sets SO_REUSEPORT by default, which would let a second rankd
  // share the port silently; like the gRPC port, refuse a busy address.
  http.set_socket_options([](int sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  http.Get(
      "/metrics", [render](const httplib::Request&, httplib::Response& res) {
        res.set_content(render(), "text/plain; version=0.0.4; charset=utf-8");
      });
  http.Get("/healthz",
           [serving](const httplib::Request&, httplib::Response& res) {
             const bool ok = serving();
             res.status = ok ? 200 : 503;
             res.set_content(ok ? "SERVING\n" : "NOT_SERVING\n",
                             "text/plain; charset=utf-8");
           });
  const auto& [host, port] = host_port;
  if (port == 0) {
    e->port_ = http.bind_to_any_port(host);
  } else if (http.bind_to_port(host, port)) {
    e->port_ = port;
  }
  if (e->port_ <= 0) {
    return absl::UnavailableError("cannot listen for metrics on " + listen +
                                  " (address in use or not permitted)");
  }
  auto done = std::make_shared<std::atomic<bool>>(false);
  e->thread_ = std::thread([&http, done] {
    http.listen_after_bind();
    *done = true;
  });
  // httplib's stop() does nothing before the accept loop runs: wait for it,
  // so that a Stop() right after Start() cannot leave the loop running.
  while (!http.is_running() && !*done) std::this_thread::yield();
  return e;
}

void MetricsEndpoint::Stop() {
  if (!thread_.joinable()) return;
  http_->stop();
  thread_.join();
}

}  // namespace gorank::server
