// Site: what every page of the public web page shares, so that a page module
// (pairing, players, ratings, events, ...) is one file that registers its
// routes: the visitor's language, one public gRPC call on the in-process
// channel for the visitor (deadline, relayed address, retry-after), the page
// shell, the refusal in the page's shape (HTML in the visitor's language or
// {"code", "message"} under /api/), and the JSON answer.
//
// A page module is a function `void InstallXPages(httplib::Server&, Site&)`
// called once by WebServer before it serves; its handlers keep the Site&.
#ifndef GORANK_SERVICES_WEB_SITE_H_
#define GORANK_SERVICES_WEB_SITE_H_

#include <httplib.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "google/protobuf/message.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "services/web/html.h"
#include "services/web/web_server.h"

namespace gorank::web {

// A refused request: the status, and the seconds a client should wait
// before retrying (RESOURCE_EXHAUSTED only).
struct Refusal {
  absl::StatusCode code = absl::StatusCode::kOk;
  std::string message;
  int64_t retry_after_s = 0;
  int http_status = 0;  // when not 0, instead of HttpStatusFor(code)
  // The message is in the visitor's language already (a page's own check);
  // otherwise (rankd's gRPC text is English) a Chinese page shows a Chinese
  // sentence for the code instead.
  bool localized = false;
  bool ok() const { return code == absl::StatusCode::kOk; }
};

Refusal FromStatus(const absl::Status& s);

// The visitor's language: ?lang=en, otherwise Chinese.
Lang LangOf(const httplib::Request& req);
// True for /api/... paths (answers are JSON).
bool IsApi(const httplib::Request& req);

// Thread-safe (immutable after construction).
class Site {
 public:
  Site(const WebOptions& options, std::shared_ptr<grpc::Channel> channel);

  const WebOptions& options() const { return options_; }
  const std::shared_ptr<grpc::Channel>& channel() const { return channel_; }

  // One public gRPC call for the visitor behind `http_req`, with the
  // deadline; the visitor's address travels along so rankd's own per-client
  // limit applies to the visitor, not to the web page as a whole.
  // `stub` is e.g. a v1::RatingService::Stub made from channel().
  template <typename S, typename Req, typename Resp>
  Refusal Call(const httplib::Request& http_req, S* stub,
               grpc::Status (S::*method)(grpc::ClientContext*, const Req&,
                                         Resp*),
               const Req& req, Resp* resp) const {
    grpc::ClientContext ctx;
    Prepare(http_req, &ctx);
    const grpc::Status s = (stub->*method)(&ctx, req, resp);
    return FromGrpc(s, ctx);
  }

  // The page: shell (title, navigation, language switch) around `body_html`.
  // A `cacheable` 200 answer to GET carries an ETag (a digest of the page)
  // and Cache-Control: public, max-age=60, and is 304 without a body when
  // the request's If-None-Match names that ETag; other answers stay
  // no-store (a page with a form token must not be cached).
  void Html(const httplib::Request& req, httplib::Response& res, int status,
            const std::string& title, const std::string& body_html,
            bool cacheable = true) const;
  // `body` as the answer with `content_type`, cacheable as Html says.
  void Cacheable(const httplib::Request& req, httplib::Response& res,
                 std::string body, const char* content_type) const;
  // The refusal as a page in the visitor's language, or as JSON under /api/.
  void Refuse(const httplib::Request& req, httplib::Response& res,
              const Refusal& r) const;
  // 200 with the message as JSON (proto field names); cacheable when the
  // request is a GET (`req` may be null: not cacheable).
  void Json(httplib::Response& res, const google::protobuf::Message& msg,
            const httplib::Request* req = nullptr) const;
  // 200 with `json` (already serialized) as application/json.
  void JsonText(httplib::Response& res, std::string json,
                const httplib::Request* req = nullptr) const;

 private:
  void Prepare(const httplib::Request& http_req,
               grpc::ClientContext* ctx) const;
  Refusal FromGrpc(const grpc::Status& s, const grpc::ClientContext& ctx) const;

  WebOptions options_;
  std::shared_ptr<grpc::Channel> channel_;
};

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_SITE_H_
