// A WebDriver client for browser tests: starts Debian's chromedriver on a
// port of its choosing (read from its log line) and drives one headless
// Chromium session over the W3C WebDriver protocol (HTTP + JSON): open a
// URL at a window size, run a script in the page (not subject to the page's
// Content-Security-Policy, so axe-core can be injected into pages that allow
// no scripts), take a PNG screenshot. Not thread-safe.
#ifndef GORANK_TESTS_TESTING_WEBDRIVER_H_
#define GORANK_TESTS_TESTING_WEBDRIVER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "tests/testing/rankd_process.h"

namespace gorank::testing {

// The first executable `name` on PATH ("" when none).
std::string FindOnPath(const std::string& name);

class WebDriver {
 public:
  // Starts `chromedriver` and a session of `chromium` (headless, no
  // sandbox, fonts as installed). FAILED_PRECONDITION when either is missing
  // or the session cannot be made (the message says why).
  static absl::StatusOr<std::unique_ptr<WebDriver>> Start(
      const std::string& chromedriver, const std::string& chromium);
  ~WebDriver();
  WebDriver(const WebDriver&) = delete;
  WebDriver& operator=(const WebDriver&) = delete;

  // Sets the window's size in CSS pixels, then loads `url` and waits for the
  // document to be complete.
  absl::Status Open(const std::string& url, int width, int height);
  // Runs `script` (a function body; `arguments` are `args`) and returns its
  // value. With `async`, the script calls arguments[arguments.length - 1]
  // with the value.
  absl::StatusOr<nlohmann::json> Execute(const std::string& script,
                                         const nlohmann::json& args,
                                         bool async = false);
  // The whole document's HTML as the browser has it.
  absl::StatusOr<std::string> Dom();
  // The viewport as a PNG file's bytes.
  absl::StatusOr<std::string> Screenshot();
  // The scroll width of the document (wider than the window: the page
  // scrolls sideways).
  absl::StatusOr<int> ScrollWidth();
  // Presses and releases each key of `keys` in turn on the keyboard, as a
  // person would (W3C actions): a character, or one of the WebDriver key
  // codes such as kTab and kEnter.
  absl::Status PressKeys(const std::vector<std::string>& keys);
  static constexpr char kTab[] = "\xEE\x80\x84";    // U+E004
  static constexpr char kEnter[] = "\xEE\x80\x87";  // U+E007

 private:
  WebDriver() = default;
  absl::StatusOr<nlohmann::json> Call(const std::string& method,
                                      const std::string& path,
                                      const nlohmann::json& body);

  std::unique_ptr<Child> driver_;
  int port_ = 0;
  std::string session_;
};

}  // namespace gorank::testing

#endif  // GORANK_TESTS_TESTING_WEBDRIVER_H_
