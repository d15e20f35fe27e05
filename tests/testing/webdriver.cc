#include "tests/testing/webdriver.h"

#include <httplib.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <regex>

#include "absl/strings/escaping.h"

namespace gorank::testing {

using nlohmann::json;

std::string FindOnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

absl::StatusOr<std::unique_ptr<WebDriver>> WebDriver::Start(
    const std::string& chromedriver, const std::string& chromium) {
  if (chromedriver.empty() || chromium.empty()) {
    return absl::FailedPreconditionError(
        "chromium and chromedriver are needed (apt-get install chromium "
        "chromium-driver fonts-wqy-zenhei)");
  }
  std::unique_ptr<WebDriver> d(new WebDriver());
  d->driver_ = std::make_unique<Child>(
      std::vector<std::string>{chromedriver, "--port=0"});
  std::vector<std::string> groups;
  if (!d->driver_->WaitForOutput(
          std::regex("was started successfully on port ([0-9]+)"),
          std::chrono::seconds(30), &groups)) {
    return absl::FailedPreconditionError("chromedriver did not start:\n" +
                                         d->driver_->output());
  }
  d->port_ = std::atoi(groups[1].c_str());
  const json caps = {
      {"capabilities",
       {{"alwaysMatch",
         {{"goog:chromeOptions",
           {{"binary", chromium},
            {"args",
             {"--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage", "--hide-scrollbars",
              "--force-device-scale-factor=1", "--lang=zh-CN"}}}}}}}}};
  absl::StatusOr<json> session = d->Call("POST", "/session", caps);
  if (!session.ok()) {
    return absl::FailedPreconditionError(
        "no Chromium session: " + std::string(session.status().message()));
  }
  d->session_ = (*session).value("sessionId", "");
  if (d->session_.empty()) {
    return absl::FailedPreconditionError("no session id in " + session->dump());
  }
  return d;
}

WebDriver::~WebDriver() {
  if (!session_.empty()) (void)Call("DELETE", "/session/" + session_, nullptr);
  if (driver_ && driver_->running()) {
    driver_->Signal(SIGTERM);
    driver_->Wait();
  }
}

absl::StatusOr<json> WebDriver::Call(const std::string& method,
                                     const std::string& path,
                                     const json& body) {
  httplib::Client client("127.0.0.1", port_);
  client.set_read_timeout(std::chrono::seconds(60));
  client.set_connection_timeout(std::chrono::seconds(10));
  httplib::Result r =
      method == "GET" ? client.Get(path)
      : method == "DELETE"
          ? client.Delete(path)
          : client.Post(path, body.is_null() ? "{}" : body.dump(),
                        "application/json");
  if (!r) {
    return absl::UnavailableError("chromedriver " + method + " " + path + ": " +
                                  httplib::to_string(r.error()));
  }
  json answer = json::parse(r->body, nullptr, /*allow_exceptions=*/false);
  if (answer.is_discarded() || !answer.contains("value")) {
    return absl::InternalError("chromedriver " + method + " " + path +
                               " answered " + std::to_string(r->status) + ": " +
                               r->body.substr(0, 500));
  }
  json value = answer["value"];
  if (r->status != 200) {
    return absl::InternalError("chromedriver " + method + " " + path + ": " +
                               (value.is_object()
                                    ? value.value("message", value.dump())
                                    : value.dump())
                                   .substr(0, 2000));
  }
  return value;
}

absl::Status WebDriver::Open(const std::string& url, int width, int height) {
  const std::string s = "/session/" + session_;
  if (absl::StatusOr<json> r =
          Call("POST", s + "/window/rect",
               {{"x", 0}, {"y", 0}, {"width", width}, {"height", height}});
      !r.ok()) {
    return r.status();
  }
  if (absl::StatusOr<json> r = Call("POST", s + "/url", {{"url", url}});
      !r.ok()) {
    return r.status();
  }
  return absl::OkStatus();
}

absl::StatusOr<json> WebDriver::Execute(const std::string& script,
                                        const json& args, bool async) {
  return Call(
      "POST",
      "/session/" + session_ + (async ? "/execute/async" : "/execute/sync"),
      {{"script", script}, {"args", args}});
}

absl::StatusOr<std::string> WebDriver::Dom() {
  absl::StatusOr<json> v =
      Execute("return document.documentElement.outerHTML;", json::array());
  if (!v.ok()) return v.status();
  if (!v->is_string()) return absl::InternalError("no DOM: " + v->dump());
  return v->get<std::string>();
}

absl::StatusOr<std::string> WebDriver::Screenshot() {
  absl::StatusOr<json> v =
      Call("GET", "/session/" + session_ + "/screenshot", nullptr);
  if (!v.ok()) return v.status();
  std::string png;
  if (!v->is_string() || !absl::Base64Unescape(v->get<std::string>(), &png)) {
    return absl::InternalError("the screenshot is not base64");
  }
  return png;
}

absl::StatusOr<int> WebDriver::ScrollWidth() {
  absl::StatusOr<json> v =
      Execute("return document.documentElement.scrollWidth;", json::array());
  if (!v.ok()) return v.status();
  if (!v->is_number_integer()) return absl::InternalError(v->dump());
  return v->get<int>();
}

absl::Status WebDriver::PressKeys(const std::vector<std::string>& keys) {
  json actions = json::array();
  for (const std::string& k : keys) {
    actions.push_back({{"type", "keyDown"}, {"value", k}});
    actions.push_back({{"type", "keyUp"}, {"value", k}});
  }
  const json body = {{"actions", json::array({{{"type", "key"},
                                               {"id", "keyboard"},
                                               {"actions", actions}}})}};
  absl::StatusOr<json> v =
      Call("POST", "/session/" + session_ + "/actions", body);
  return v.ok() ? absl::OkStatus() : v.status();
}

}  // namespace gorank::testing
