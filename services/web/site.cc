#include "services/web/site.h"

#include <cstdlib>
#include <utility>

#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"
#include "services/auth/call_gate.h"
#include "services/web/http_status.h"
#include "services/web/web_pages.h"

namespace gorank::web {
namespace {

constexpr char kHtml[] = "text/html; charset=utf-8";
constexpr char kJson[] = "application/json; charset=utf-8";

// The request's path and query without `lang`: the language switch adds it.
std::string PathWithoutLang(const httplib::Request& req) {
  // After a posted objection, the other language's page is the notices (the
  // posted fields, the contact among them, stay out of any URL).
  if (req.method == "POST") return "/notices";
  std::string out = req.path;
  char sep = '?';
  for (const auto& [key, value] : req.params) {
    if (key == "lang") continue;
    out += sep + UrlEncode(key) + "=" + UrlEncode(value);
    sep = '&';
  }
  return out;
}

std::string JsonError(const Refusal& r) {
  nlohmann::json j = {{"code", CodeName(r.code)}, {"message", r.message}};
  if (r.retry_after_s > 0) j["retry_after_seconds"] = r.retry_after_s;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

Refusal FromStatus(const absl::Status& s) {
  return Refusal{s.code(), std::string(s.message()), 0};
}

Lang LangOf(const httplib::Request& req) {
  return ParseLang(req.get_param_value("lang"));
}

bool IsApi(const httplib::Request& req) {
  return req.path.rfind("/api/", 0) == 0;
}

Site::Site(const WebOptions& options, std::shared_ptr<grpc::Channel> channel)
    : options_(options), channel_(std::move(channel)) {}

void Site::Prepare(const httplib::Request& http_req,
                   grpc::ClientContext* ctx) const {
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::milliseconds(options_.call_deadline_ms));
  if (!options_.relay_key.empty()) {
    ctx->AddMetadata(kRelayKeyMetadata, options_.relay_key);
    ctx->AddMetadata(kRelayedClientMetadata, http_req.remote_addr);
  }
}

Refusal Site::FromGrpc(const grpc::Status& s,
                       const grpc::ClientContext& ctx) const {
  Refusal r;
  if (s.ok()) return r;
  r.code = static_cast<absl::StatusCode>(s.error_code());
  r.message = s.error_message();
  if (r.code == absl::StatusCode::kResourceExhausted) {
    int64_t ms = 1000;
    for (const auto& [key, value] : ctx.GetServerTrailingMetadata()) {
      if (key == "retry-after-ms")
        ms = std::atoll(std::string(value.data(), value.size()).c_str());
    }
    r.retry_after_s = RetryAfterSeconds(ms);
  }
  return r;
}

void Site::Html(const httplib::Request& req, httplib::Response& res, int status,
                const std::string& title, const std::string& body_html) const {
  res.status = status;
  res.set_content(
      RenderPage(LangOf(req), title, body_html, PathWithoutLang(req)), kHtml);
}

void Site::Refuse(const httplib::Request& req, httplib::Response& res,
                  const Refusal& r) const {
  res.status = r.http_status != 0 ? r.http_status : HttpStatusFor(r.code);
  if (r.retry_after_s > 0)
    res.set_header("Retry-After", std::to_string(r.retry_after_s));
  if (IsApi(req)) {
    res.set_content(JsonError(r), kJson);
    return;
  }
  const Lang lang = LangOf(req);
  const Texts& t = TextsFor(lang);
  std::string message = r.message;
  if (r.retry_after_s > 0) {
    message = std::string(t.rate_limited) + " " +
              std::to_string(r.retry_after_s) + " " + t.seconds + ". (" +
              r.message + ")";
  }
  const int status = res.status;
  Html(req, res, status, t.error_heading,
       ErrorBody(lang, CodeName(r.code), message));
}

void Site::Json(httplib::Response& res,
                const google::protobuf::Message& msg) const {
  google::protobuf::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = true;
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(msg, &out, opts);
  JsonText(res, std::move(out));
}

void Site::JsonText(httplib::Response& res, std::string json) const {
  res.status = 200;
  res.set_content(std::move(json), kJson);
}

}  // namespace gorank::web
