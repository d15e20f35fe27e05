#include "services/web/web_server.h"

#include <httplib.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <fstream>
#include <iterator>
#include <mutex>
#include <thread>
#include <type_traits>

#include "google/protobuf/util/json_util.h"
#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "grpcpp/client_context.h"
#include "nlohmann/json.hpp"
#include "services/auth/call_gate.h"
#include "services/web/events_page.h"
#include "services/web/form_guard.h"
#include "services/web/html.h"
#include "services/web/http_status.h"
#include "services/web/pairing_page.h"
#include "services/web/player_page.h"
#include "services/web/ratings_page.h"
#include "services/web/search_page.h"
#include "services/web/site.h"
#include "services/web/statement_page.h"
#include "services/web/web_pages.h"
#include "spdlog/spdlog.h"

namespace gorank::web {
namespace {

using httplib::Request;
using httplib::Response;
using Stub = v1::CertificateService::Stub;

int64_t NowUnix() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The media type of the body, lower case, without parameters:
// "Application/JSON; charset=utf-8" -> "application/json".
std::string MediaType(const Request& req) {
  std::string t = req.get_header_value("Content-Type");
  t = t.substr(0, t.find(';'));
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.pop_back();
  const size_t first = t.find_first_not_of(" \t");
  t = first == std::string::npos ? "" : t.substr(first);
  for (char& c : t)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t;
}

RequestOrigin OriginHeaders(const Request& req) {
  return RequestOrigin{req.get_header_value("Sec-Fetch-Site"),
                       req.get_header_value("Origin"),
                       req.get_header_value("Host")};
}

// "HOST:PORT" or "[V6]:PORT".
absl::Status SplitListen(const std::string& listen, std::string* host,
                         int* port) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return absl::InvalidArgumentError("http_listen must be HOST:PORT, got '" +
                                      listen + "'");
  }
  *host = listen.substr(0, colon);
  if (host->size() > 2 && host->front() == '[' && host->back() == ']') {
    *host = host->substr(1, host->size() - 2);
  }
  const std::string p = listen.substr(colon + 1);
  auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), *port);
  if (ec != std::errc() || end != p.data() + p.size() || *port < 0 ||
      *port > 65535) {
    return absl::InvalidArgumentError(
        "http_listen port must be 0..65535, got '" + p + "'");
  }
  return absl::OkStatus();
}

// The logo file's bytes and media type (PNG or SVG), or why not.
absl::Status ReadLogo(const std::string& path, std::string* bytes,
                      std::string* type) {
  constexpr size_t kMaxLogoBytes = 256 * 1024;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::InvalidArgumentError("web_logo_file: cannot read '" + path +
                                      "'");
  }
  bytes->assign(std::istreambuf_iterator<char>(in), {});
  if (bytes->size() > kMaxLogoBytes) {
    return absl::InvalidArgumentError(
        "web_logo_file: '" + path + "' is " + std::to_string(bytes->size()) +
        " bytes; at most " + std::to_string(kMaxLogoBytes));
  }
  if (bytes->rfind("\x89PNG\r\n\x1a\n", 0) == 0) {
    *type = "image/png";
  } else if (bytes->find("<svg") != std::string::npos &&
             bytes->find_first_not_of(" \t\r\n") != std::string::npos &&
             (*bytes)[bytes->find_first_not_of(" \t\r\n")] == '<') {
    *type = "image/svg+xml";
  } else {
    return absl::InvalidArgumentError("web_logo_file: '" + path +
                                      "' is neither a PNG nor an SVG file");
  }
  return absl::OkStatus();
}

}  // namespace

struct WebServer::Impl {
  Impl(const WebOptions& o, std::shared_ptr<grpc::Channel> channel)
      : options(o),
        site(o, channel),
        stub(v1::CertificateService::NewStub(channel)),
        events(v1::TournamentService::NewStub(channel)),
        limiter(o.limit),
        tokens(o.form_key) {}

  // Reads the body of a POST into *body, at most options.max_body_bytes of it
  // however it is framed: cpp-httplib (0.11) caps only a body with a
  // Content-Length and reads a chunked or unframed one whole, after undoing
  // gzip/brotli. A refused body may stay partly unread: the answer then says
  // "Connection: close" (httplib itself reads on, taking what is left for
  // further, malformed, requests until the client closes or 100 have passed).
  Refusal ReadBody(const Request& req, Response& res,
                   const httplib::ContentReader& reader, std::string* body) {
    if (req.is_multipart_form_data()) {
      res.set_header("Connection", "close");
      return Refusal{absl::StatusCode::kInvalidArgument,
                     "multipart/form-data is not accepted: the objection form "
                     "posts application/x-www-form-urlencoded, the API "
                     "application/json",
                     0, 415};
    }
    bool too_large = false;
    const bool read = reader([&](const char* data, size_t n) {
      if (n > options.max_body_bytes - body->size()) {
        too_large = true;
        return false;
      }
      body->append(data, n);
      return true;
    });
    if (read) return Refusal{};
    res.set_header("Connection", "close");
    if (too_large || res.status == 413) {
      return Refusal{absl::StatusCode::kResourceExhausted,
                     "request too large (at most " +
                         std::to_string(options.max_body_bytes) + " bytes)",
                     0, 413};
    }
    if (res.status == 415) {
      return Refusal{absl::StatusCode::kInvalidArgument,
                     "unsupported Content-Encoding '" +
                         req.get_header_value("Content-Encoding") + "'",
                     0, 415};
    }
    return Refusal{absl::StatusCode::kInvalidArgument, "malformed request body",
                   0, 400};
  }

  // One public gRPC call on CertificateService or TournamentService.
  template <typename S, typename Req, typename Resp>
  Refusal Call(const Request& http_req,
               grpc::Status (S::*method)(grpc::ClientContext*, const Req&,
                                         Resp*),
               const Req& req, Resp* resp) {
    if constexpr (std::is_same_v<S, Stub>) {
      return site.Call(http_req, stub.get(), method, req, resp);
    } else {
      return site.Call(http_req, events.get(), method, req, resp);
    }
  }
  void Html(const Request& req, Response& res, int status,
            const std::string& title, const std::string& body,
            bool cacheable = true) {
    site.Html(req, res, status, title, body, cacheable);
  }
  void Refuse(const Request& req, Response& res, const Refusal& r) {
    site.Refuse(req, res, r);
  }
  void Json(Response& res, const google::protobuf::Message& msg,
            const Request* req = nullptr) {
    site.Json(res, msg, req);
  }

  // The gRPC calls behind both the pages and the JSON API.
  Refusal Verify(const Request& req, v1::VerifyCertificateResponse* resp) {
    v1::VerifyCertificateRequest r;
    r.set_number(req.get_param_value("number"));
    r.set_holder_name(req.get_param_value("name"));
    return Call(req, &Stub::VerifyCertificate, r, resp);
  }
  Refusal Lookup(const Request& req, v1::LookupRankResponse* resp) {
    v1::LookupRankRequest r;
    r.set_name(req.get_param_value("name"));
    return Call(req, &Stub::LookupRank, r, resp);
  }
  Refusal Notices(const Request& req, v1::ListNoticesResponse* resp) {
    // Pages until one beyond the cap is read (or the list ends); pages as
    // large as rankd gives (500, certificates.proto), so one call usually.
    v1::ListNoticesRequest list;
    list.set_page_size(std::min(options.max_notices + 1, 500));
    Refusal r;
    do {
      v1::ListNoticesResponse page;
      r = Call(req, &Stub::ListNotices, list, &page);
      if (!r.ok()) return r;
      list.set_page_token(page.next_page_token());
      resp->MergeFrom(page);
    } while (!list.page_token().empty() &&
             resp->notices_size() <= options.max_notices);
    resp->clear_next_page_token();
    if (resp->notices_size() > options.max_notices + 1) {
      // Keep one beyond the cap so the page can say that more exist.
      resp->mutable_notices()->DeleteSubrange(
          options.max_notices + 1,
          resp->notices_size() - options.max_notices - 1);
    }
    return r;
  }

  // GET /pairing?event=ID[&round=N]: the event and its results.
  Refusal Pairing(const Request& req, v1::GetEventResponse* event,
                  v1::GetResultsResponse* results, int* round) {
    int64_t id = 0;
    const std::string text = req.get_param_value("event");
    auto [end, ec] =
        std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc() || end != text.data() + text.size() || id <= 0) {
      return Refusal{
          absl::StatusCode::kInvalidArgument,
          "event must be an event id (a positive number), got '" + text + "'",
          0};
    }
    *round = 0;
    const std::string r = req.get_param_value("round");
    auto [rend, rec] = std::from_chars(r.data(), r.data() + r.size(), *round);
    if (!r.empty() &&
        (rec != std::errc() || rend != r.data() + r.size() || *round <= 0)) {
      return Refusal{
          absl::StatusCode::kInvalidArgument,
          "round must be a round number (1 or more), got '" + r + "'", 0};
    }
    v1::GetEventRequest ereq;
    ereq.set_event_id(id);
    if (Refusal f =
            Call(req, &v1::TournamentService::Stub::GetEvent, ereq, event);
        !f.ok()) {
      return f;
    }
    v1::GetResultsRequest rreq;
    rreq.set_event_id(id);
    return Call(req, &v1::TournamentService::Stub::GetResults, rreq, results);
  }

  void Routes();
  void Limits();

  // The federation's logo (WebOptions::logo_file): bytes and media type.
  std::string logo;
  std::string logo_type;

  WebOptions options;
  Site site;
  std::unique_ptr<Stub> stub;
  std::unique_ptr<v1::TournamentService::Stub> events;
  RateLimiter limiter;
  FormTokens tokens;
  httplib::Server http;
  std::thread thread;
  std::mutex stop_mu;
  int port = 0;
};

void WebServer::Impl::Routes() {
  if (!logo.empty()) {
    http.Get("/logo", [this](const Request& req, Response& res) {
      res.status = 200;
      site.Cacheable(req, res, logo, logo_type.c_str());
    });
  }
  http.Get("/", [this](const Request& req, Response& res) {
    Html(req, res, 200, TextsFor(LangOf(req)).nav_home,
         HomeBody(LangOf(req), "", ""));
  });
  http.Get("/verify", [this](const Request& req, Response& res) {
    // The QR code's statement (s=GR1...): statement_page.h.
    if (ServeStatementVerify(req, res, site)) return;
    const Texts& t = TextsFor(LangOf(req));
    const std::string number = req.get_param_value("number");
    const std::string name = req.get_param_value("name");
    if (name.empty()) {  // the QR code's URL: the form with the number filled
                         // in
      Html(req, res, 200, t.verify_heading, HomeBody(LangOf(req), number, ""));
      return;
    }
    v1::VerifyCertificateResponse resp;
    if (Refusal r = Verify(req, &resp); !r.ok()) return Refuse(req, res, r);
    std::string body = VerifyBody(LangOf(req), resp);
    if (resp.outcome() == v1::VERIFY_OUTCOME_REVOKED) {
      // The revocation's date, from the signed list (statement_page.h),
      // inside the result's section.
      const size_t end = body.find("</section>");
      if (end != std::string::npos) {
        body.insert(end, RevokedDateNote(req, site, resp.number()));
      }
    }
    Html(req, res, 200, t.verify_heading, body);
  });
  http.Get("/lookup", [this](const Request& req, Response& res) {
    v1::LookupRankResponse resp;
    if (Refusal r = Lookup(req, &resp); !r.ok()) return Refuse(req, res, r);
    Html(req, res, 200, TextsFor(LangOf(req)).lookup_heading,
         LookupBody(LangOf(req), req.get_param_value("name"), resp));
  });
  http.Get("/pairing", [this](const Request& req, Response& res) {
    v1::GetEventResponse event;
    v1::GetResultsResponse results;
    int round = 0;
    if (Refusal r = Pairing(req, &event, &results, &round); !r.ok()) {
      return Refuse(req, res, r);
    }
    const int shown = CurrentRound(results.results(), round);
    Html(req, res, 200, PairingTitle(LangOf(req), shown),
         PairingBody(LangOf(req), event.event(), results.results(), round));
  });
  http.Get("/notices", [this](const Request& req, Response& res) {
    v1::ListNoticesResponse resp;
    if (Refusal r = Notices(req, &resp); !r.ok()) return Refuse(req, res, r);
    Html(req, res, 200, TextsFor(LangOf(req)).notices_heading,
         NoticesBody(LangOf(req), resp, options.max_notices,
                     tokens.Issue(req.remote_addr, NowUnix())),
         /*cacheable=*/false);
  });
  // Every POST reads its body through ReadBody (the limit); the form also
  // needs the token its page was shown with, and a same-origin post.
  http.Post("/objections", [this](const Request& http_req, Response& res,
                                  const httplib::ContentReader& reader) {
    std::string body;
    if (Refusal r = ReadBody(http_req, res, reader, &body); !r.ok()) {
      return Refuse(http_req, res, r);
    }
    Request req = http_req;  // the form's fields join the query's (lang)
    if (MediaType(req) != "application/x-www-form-urlencoded") {
      return Refuse(req, res,
                    Refusal{absl::StatusCode::kInvalidArgument,
                            "the objection form posts "
                            "application/x-www-form-urlencoded, got '" +
                                req.get_header_value("Content-Type") + "'",
                            0, 415});
    }
    httplib::detail::parse_query_text(body, req.params);
    if (absl::Status s =
            CheckSameOrigin(OriginHeaders(req), options.public_base_url);
        !s.ok()) {
      return Refuse(req, res, FromStatus(s));
    }
    if (absl::Status s = tokens.Check(req.get_param_value("form_token"),
                                      req.remote_addr, NowUnix());
        !s.ok()) {
      return Refuse(req, res, FromStatus(s));
    }
    v1::LodgeObjectionRequest lodge;
    lodge.set_number(req.get_param_value("number"));
    lodge.set_text(req.get_param_value("text"));
    lodge.set_contact(req.get_param_value("contact"));
    v1::LodgeObjectionResponse resp;
    if (Refusal r = Call(req, &Stub::LodgeObjection, lodge, &resp); !r.ok()) {
      return Refuse(req, res, r);
    }
    Html(req, res, 200, TextsFor(LangOf(req)).objection_heading,
         ObjectionBody(LangOf(req), resp));
  });

  http.Get("/api/v1/verify", [this](const Request& req, Response& res) {
    if (ServeStatementVerify(req, res, site)) return;
    v1::VerifyCertificateResponse resp;
    if (Refusal r = Verify(req, &resp); !r.ok()) return Refuse(req, res, r);
    site.JsonText(res, VerifyJson(req, site, resp), &req);
  });
  http.Get("/api/v1/lookup", [this](const Request& req, Response& res) {
    v1::LookupRankResponse resp;
    if (Refusal r = Lookup(req, &resp); !r.ok()) return Refuse(req, res, r);
    Json(res, resp, &req);
  });
  http.Get("/api/v1/pairing", [this](const Request& req, Response& res) {
    v1::GetEventResponse event;
    v1::GetResultsResponse results;
    int round = 0;
    if (Refusal r = Pairing(req, &event, &results, &round); !r.ok()) {
      return Refuse(req, res, r);
    }
    site.JsonText(res, PairingJson(event.event(), results.results(), round),
                  &req);
  });
  http.Get("/api/v1/notices", [this](const Request& req, Response& res) {
    v1::ListNoticesResponse resp;
    if (Refusal r = Notices(req, &resp); !r.ok()) return Refuse(req, res, r);
    if (resp.notices_size() > options.max_notices) {
      resp.mutable_notices()->DeleteSubrange(options.max_notices, 1);
      res.set_header("X-Truncated", "true");
    }
    Json(res, resp, &req);
  });
  // A page elsewhere can post text/plain without the browser asking first;
  // application/json it cannot (CORS preflight, which this server never
  // grants).
  http.Post("/api/v1/objections", [this](const Request& req, Response& res,
                                         const httplib::ContentReader& reader) {
    std::string body;
    if (Refusal r = ReadBody(req, res, reader, &body); !r.ok()) {
      return Refuse(req, res, r);
    }
    if (MediaType(req) != "application/json") {
      return Refuse(req, res,
                    Refusal{absl::StatusCode::kInvalidArgument,
                            "POST /api/v1/objections takes a JSON body with "
                            "Content-Type: application/json, got '" +
                                req.get_header_value("Content-Type") + "'",
                            0, 415});
    }
    if (absl::Status s =
            CheckSameOrigin(OriginHeaders(req), options.public_base_url);
        !s.ok()) {
      return Refuse(req, res, FromStatus(s));
    }
    v1::LodgeObjectionRequest lodge;
    const auto parsed =
        google::protobuf::util::JsonStringToMessage(body, &lodge);
    if (!parsed.ok()) {
      return Refuse(
          req, res,
          Refusal{absl::StatusCode::kInvalidArgument,
                  "the body must be a LodgeObjectionRequest in JSON "
                  "({\"number\": ..., \"text\": ..., \"contact\": ...}): " +
                      std::string(parsed.message()),
                  0});
    }
    v1::LodgeObjectionResponse resp;
    if (Refusal r = Call(req, &Stub::LodgeObjection, lodge, &resp); !r.ok()) {
      return Refuse(req, res, r);
    }
    Json(res, resp);
  });
  // The portal's page modules (site.h), each with its pages and their
  // /api/v1/ twins. Installed before the catch-all POST below.
  // (one line per module)
  InstallEventPages(http, site);
  InstallStatementPages(http, site);
  InstallPlayerPages(http, site);
  InstallSearchPages(http, site);
  InstallRatingsPages(http, site);

  // Any other POST: its body is read (within the limit) before the 404.
  http.Post(".*", [this](const Request& req, Response& res,
                         const httplib::ContentReader& reader) {
    std::string body;
    Refusal r = ReadBody(req, res, reader, &body);
    if (r.ok()) {
      r = Refusal{absl::StatusCode::kNotFound,
                  std::string(TextsFor(LangOf(req)).not_found_page) + " (" +
                      req.path + ")",
                  0, 0, /*localized=*/true};
    }
    Refuse(req, res, r);
  });
}

void WebServer::Impl::Limits() {
  http.set_payload_max_length(options.max_body_bytes);
  const auto io = std::chrono::milliseconds(options.io_timeout_ms);
  http.set_read_timeout(io);
  http.set_write_timeout(io);
  // Short keep-alive: an idle browser connection holds a worker thread and
  // delays Stop() by at most this long.
  http.set_keep_alive_timeout(1);
  http.set_keep_alive_max_count(100);
  http.set_tcp_nodelay(true);
  http.set_default_headers({
      {"X-Content-Type-Options", "nosniff"},
      {"Content-Security-Policy",
       "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; "
       "form-action 'self'; "
       "frame-ancestors 'none'"},
      {"Referrer-Policy", "no-referrer"},
      {"Cache-Control", "no-store"},
  });
  http.set_pre_routing_handler([this](const Request& req, Response& res) {
    const int64_t wait_ms = limiter.Acquire(req.remote_addr);
    if (wait_ms == 0 && req.method != "GET" && req.method != "HEAD" &&
        req.method != "POST") {
      // httplib would read a PUT/PATCH/DELETE/PRI body whole, unlimited,
      // before finding no route: refuse it unread.
      res.set_header("Allow", "GET, HEAD, POST");
      res.set_header("Connection", "close");
      Refuse(req, res,
             Refusal{absl::StatusCode::kUnimplemented,
                     "method " + req.method + " not allowed (GET, HEAD, POST)",
                     0, 405});
      return httplib::Server::HandlerResponse::Handled;
    }
    if (wait_ms == 0) return httplib::Server::HandlerResponse::Unhandled;
    const int64_t secs = RetryAfterSeconds(wait_ms);
    Refuse(req, res,
           Refusal{absl::StatusCode::kResourceExhausted,
                   "too many requests from " + req.remote_addr +
                       "; retry after " + std::to_string(secs) + " s",
                   secs});
    return httplib::Server::HandlerResponse::Handled;
  });
  // Answers httplib makes itself (no route, body too large, bad request) get
  // the same shape as ours; our own answers already have a body.
  http.set_error_handler(httplib::Server::HandlerWithResponse(
      [this](const Request& req, Response& res) {
        if (!res.body.empty())
          return httplib::Server::HandlerResponse::Unhandled;
        Refusal r{absl::StatusCode::kInvalidArgument, "malformed request", 0};
        if (res.status == 404) {
          r = {absl::StatusCode::kNotFound,
               std::string(TextsFor(LangOf(req)).not_found_page) + " (" +
                   req.path + ")",
               0, 0, /*localized=*/true};
        } else if (res.status == 413) {
          r = {absl::StatusCode::kResourceExhausted,
               "request too large (at most " +
                   std::to_string(options.max_body_bytes) + " bytes)",
               0};
        } else if (res.status == 405) {
          r = {absl::StatusCode::kUnimplemented, "method not allowed", 0};
        }
        const int status = res.status;
        Refuse(req, res, r);
        res.status = status;
        return httplib::Server::HandlerResponse::Handled;
      }));
  http.set_exception_handler([this](const Request& req, Response& res,
                                    std::exception_ptr) {
    spdlog::error("http path={} failed with an exception", req.path);
    Refuse(req, res, Refusal{absl::StatusCode::kInternal, "internal error", 0});
  });
  http.set_logger([](const Request& req, const Response& res) {
    spdlog::info("http method={} path={} remote={} status={}", req.method,
                 req.path, req.remote_addr, res.status);
  });
}

WebServer::WebServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

WebServer::~WebServer() { Stop(); }

int WebServer::port() const { return impl_->port; }

absl::StatusOr<std::unique_ptr<WebServer>> WebServer::Start(
    const WebOptions& options, std::shared_ptr<grpc::Channel> channel) {
  std::string host;
  int port = 0;
  if (absl::Status s = SplitListen(options.listen, &host, &port); !s.ok())
    return s;
  WebOptions with_logo = options;
  std::string logo, logo_type;
  if (!options.logo_file.empty()) {
    if (absl::Status s = ReadLogo(options.logo_file, &logo, &logo_type);
        !s.ok())
      return s;
    with_logo.branding.logo = true;
  }
  auto impl = std::make_unique<Impl>(with_logo, std::move(channel));
  impl->logo = std::move(logo);
  impl->logo_type = std::move(logo_type);
  impl->Limits();
  impl->Routes();
  if (port == 0) {
    port = impl->http.bind_to_any_port(host);
  } else if (!impl->http.bind_to_port(host, port)) {
    port = -1;
  }
  if (port <= 0) {
    return absl::UnavailableError("cannot listen for HTTP on " +
                                  options.listen);
  }
  impl->port = port;
  Impl* raw = impl.get();
  impl->thread = std::thread([raw] { raw->http.listen_after_bind(); });
  // stop() is a no-op until the accept loop runs: wait for it (bounded).
  for (int i = 0; i < 5000 && !raw->http.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  spdlog::info("public web page on http://{}:{}", host, port);
  return std::unique_ptr<WebServer>(new WebServer(std::move(impl)));
}

void WebServer::Stop() {
  std::lock_guard<std::mutex> lock(impl_->stop_mu);
  if (!impl_->thread.joinable()) return;
  impl_->http.stop();
  impl_->thread.join();
  spdlog::info("public web page stopped");
}

}  // namespace gorank::web
