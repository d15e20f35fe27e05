#include "services/web/site.h"

#include <cstdlib>
#include <utility>

#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"
#include "openssl/sha.h"
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

// What a Chinese page says for a refusal whose text is rankd's (English).
const char* ChineseFor(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      return "请求有误，请检查输入的内容。";
    case absl::StatusCode::kNotFound:
      return "没有找到所请求的内容。";
    case absl::StatusCode::kAlreadyExists:
      return "该内容已经存在。";
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kAborted:
      return "当前状态下不能完成该请求。";
    case absl::StatusCode::kPermissionDenied:
      return "没有权限执行该操作。";
    case absl::StatusCode::kUnauthenticated:
      return "该操作需要登录凭证。";
    case absl::StatusCode::kResourceExhausted:
      return "请求过多或内容过大，请稍后再试。";
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kDeadlineExceeded:
    case absl::StatusCode::kCancelled:
      return "服务暂时不可用，请稍后再试。";
    case absl::StatusCode::kUnimplemented:
      return "不支持该请求方式。";
    default:
      return "服务器内部错误，请稍后再试。";
  }
}

// A strong validator of `body`: the first 128 bits of its SHA-256, quoted.
std::string ETagOf(const std::string& body) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(body.data()), body.size(),
         digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string tag = "\"";
  for (int i = 0; i < 16; ++i) {
    tag += kHex[digest[i] >> 4];
    tag += kHex[digest[i] & 15];
  }
  return tag + "\"";
}

// True when the If-None-Match header lists `etag` (or is "*"); the weak
// comparison RFC 9110 asks for: W/"x" matches "x".
bool Matches(const std::string& if_none_match, const std::string& etag) {
  return if_none_match == "*" || if_none_match.find(etag) != std::string::npos;
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
                const std::string& title, const std::string& body_html,
                bool cacheable) const {
  res.status = status;
  std::string page = RenderPage(LangOf(req), title, body_html,
                                PathWithoutLang(req), options_.branding);
  if (cacheable && status == 200) return Cacheable(req, res, page, kHtml);
  res.set_content(std::move(page), kHtml);
}

void Site::Cacheable(const httplib::Request& req, httplib::Response& res,
                     std::string body, const char* content_type) const {
  if (req.method != "GET" && req.method != "HEAD") {
    res.set_content(std::move(body), content_type);
    return;
  }
  const std::string etag = ETagOf(body);
  res.headers.erase("Cache-Control");
  res.set_header("Cache-Control", "public, max-age=60");
  res.set_header("ETag", etag);
  if (Matches(req.get_header_value("If-None-Match"), etag)) {
    res.status = 304;
    res.body.clear();
    return;
  }
  res.set_content(std::move(body), content_type);
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
  if (lang == Lang::kZh && !r.localized) message = ChineseFor(r.code);
  if (r.retry_after_s > 0) {
    message = std::string(t.rate_limited) + " " +
              std::to_string(r.retry_after_s) + " " + t.seconds + ".";
    if (lang == Lang::kEn) message += " (" + r.message + ")";
  }
  const int status = res.status;
  Html(req, res, status, t.error_heading,
       ErrorBody(lang, CodeName(r.code), message), /*cacheable=*/false);
}

void Site::Json(httplib::Response& res, const google::protobuf::Message& msg,
                const httplib::Request* req) const {
  google::protobuf::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = true;
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(msg, &out, opts);
  JsonText(res, std::move(out), req);
}

void Site::JsonText(httplib::Response& res, std::string json,
                    const httplib::Request* req) const {
  res.status = 200;
  if (req != nullptr) return Cacheable(*req, res, std::move(json), kJson);
  res.set_content(std::move(json), kJson);
}

}  // namespace gorank::web
