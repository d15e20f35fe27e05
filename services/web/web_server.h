// WebServer: rankd's public web page on its own HTTP port (cpp-httplib).
// Every page and JSON answer comes from one PUBLIC gRPC method of rankd
// (CertificateService.VerifyCertificate, LookupRank, ListNotices,
// LodgeObjection) called over the server's in-process channel with a
// deadline, so the web shows exactly what gRPC answers. Routes:
//   GET  /                       forms: verify, rank lookup; link to notices
//   GET  /verify?number=N[&name=] form with N filled in; with a name, the
//   answer GET  /lookup?name=           rank lookup GET  /notices notices, each
//   with an objection form POST /objections             form fields of
//   LodgeObjectionRequest GET  /api/v1/verify?number=&name=,
//   /api/v1/lookup?name=, /api/v1/notices, POST /api/v1/objections      (JSON
//   LodgeObjectionRequest): the response
//                                message as JSON (proto field names); errors
//                                {"code": "...", "message": "..."}
// Pages take ?lang=zh|en (default zh). Abuse limits: a token bucket per client
// address on every request (429 + Retry-After), a body size limit (413) for
// every body however it is framed (Content-Length, chunked, compressed), read
// and write timeouts, a deadline on each gRPC call, a cap on notices shown;
// methods other than GET, HEAD and POST are 405. Cross-site posts
// (form_guard.h) are refused: the form needs its form_token (403), the JSON
// API Content-Type application/json (415), and both a same-origin
// Sec-Fetch-Site / Origin when the browser sends them (403).
#ifndef GORANK_SERVICES_WEB_WEB_SERVER_H_
#define GORANK_SERVICES_WEB_WEB_SERVER_H_

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/channel.h"
#include "services/common/rate_limiter.h"
#include "services/web/html.h"

namespace gorank::web {

struct WebOptions {
  // "HOST:PORT" ("[::1]:PORT" for IPv6); port 0 picks a free port.
  std::string listen = "127.0.0.1:8080";
  // Requests per second and burst per client address; per_second <= 0: off.
  RateLimit limit{10, 30};
  // Largest request body accepted (413 above), bytes.
  size_t max_body_bytes = 16 * 1024;
  // Read and write timeout of a connection, milliseconds.
  int io_timeout_ms = 5000;
  // Deadline of each in-process gRPC call, milliseconds.
  int call_deadline_ms = 3000;
  // Notices shown on /notices and returned by /api/v1/notices.
  int max_notices = 200;
  // The call gate's relay key (CallGateOptions::relay_key): sent with every
  // gRPC call together with the visitor's address, so rankd's public limit
  // applies per visitor. Empty: calls count against the channel's peer.
  std::string relay_key;
  // The page's public address (ServerConfig::public_base_url, e.g. behind a
  // proxy): posts whose Origin is its origin are same-origin, besides those
  // whose Origin matches the Host header. Empty: the Host header only.
  std::string public_base_url;
  // The federation's title and footer in each language (empty: the
  // built-in ones); branding.logo is set by Start when logo_file is given.
  Branding branding;
  // A PNG or SVG file (at most 256 KiB) shown in the header and served at
  // GET /logo; empty: none. Read once at Start (INVALID_ARGUMENT when it
  // cannot be read, is too large or is neither PNG nor SVG).
  std::string logo_file;
  // HMAC key of the objection form's tokens. Empty: a random one per start
  // (a form shown by one instance is then refused by another).
  std::string form_key;
};

// Thread-safe. Does not own the channel's server: Stop() (or the destructor)
// must run before that server shuts down.
class WebServer {
 public:
  // Binds `options.listen` and starts serving on a thread of its own.
  // INVALID_ARGUMENT for a malformed address; UNAVAILABLE when it cannot be
  // bound.
  static absl::StatusOr<std::unique_ptr<WebServer>> Start(
      const WebOptions& options, std::shared_ptr<grpc::Channel> channel);
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  // The port actually bound.
  int port() const;
  // Stops accepting connections and waits for in-flight requests. Idempotent.
  void Stop();

 private:
  struct Impl;
  explicit WebServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_WEB_SERVER_H_
