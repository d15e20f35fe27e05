// Acceptance test of the public web page: the real rankd binary on a temp
// database serves it, a real certificate is issued with rankctl, and headless
// Chromium loads the verification URLs (the shape the printed QR code points
// to, and the filled-in form's answer); the test checks the rendered DOM and
// keeps screenshots in <build>/test-artifacts/. Without Chromium the test
// fails when CI is set and is skipped otherwise.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/rankd_process.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/webdriver.h"

namespace gorank::web {
namespace {

using testing::RankdOptions;
using testing::RankdProcess;
using testing::ReadFile;
using testing::RunResult;

constexpr char kResidentId[] = "11010519491231002X";  // born 1949-12-31

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

class WebBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = testing::FindOnPath("chromium");
    if (chromium_.empty()) {
      if (std::getenv("CI") != nullptr) {
        FAIL() << "chromium is not installed (apt-get install chromium "
                  "fonts-wqy-zenhei)";
      }
      GTEST_SKIP() << "chromium is not installed; the browser test needs it";
    }
    ASSERT_NO_FATAL_FAILURE(StartRankd());
  }

  void TearDown() override {
    if (rankd_.running()) {
      EXPECT_EQ(rankd_.Stop(), 0) << ReadFile(log_);
    }
  }

  // Starts rankd with the web page on a free port and waits (bounded) for
  // both ports in its log.
  void StartRankd() {
    log_ = dir_.File("rankd.log");
    RankdOptions options;
    options.db = dir_.File("rankd.db");
    options.web = true;
    options.flags = {"--admin-token-file", token_file_};
    options.log_path = log_;
    ASSERT_EQ(rankd_.Start(RANKD_PATH, options), "");
    ASSERT_TRUE(rankd_.running()) << "rankd exited:\n" << ReadFile(log_);
    grpc_port_ = rankd_.port();
    http_port_ = rankd_.http_port();
    ASSERT_GT(grpc_port_, 0) << ReadFile(log_);
    ASSERT_GT(http_port_, 0) << "no web page port logged:\n" << ReadFile(log_);
  }

  RunResult Ctl(std::vector<std::string> args) {
    std::vector<std::string> argv = {RANKCTL_PATH, "--server",
                                     "127.0.0.1:" + std::to_string(grpc_port_),
                                     "--token-file", token_file_};
    argv.insert(argv.end(), args.begin(), args.end());
    return testing::RunProgram(argv,
                               dir_.File("rankctl" + std::to_string(++runs_)));
  }

  // Chromium (headless, bounded by `timeout`) on `url` with `flags`.
  RunResult Chromium(const std::vector<std::string>& flags,
                     const std::string& url) {
    std::vector<std::string> argv = {
        "/usr/bin/timeout",
        "120",
        chromium_,
        "--headless",
        "--disable-gpu",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-sync",
        "--hide-scrollbars",
        "--user-data-dir=" + dir_.File("chromium-profile")};
    if (::geteuid() == 0)
      argv.push_back("--no-sandbox");  // root cannot use the sandbox
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.push_back(url);
    return testing::RunProgram(argv,
                               dir_.File("chromium" + std::to_string(++runs_)));
  }

  std::string Url(const std::string& path_and_query) {
    return "http://127.0.0.1:" + std::to_string(http_port_) + path_and_query;
  }

  // The DOM after the page loaded.
  std::string Dom(const std::string& path_and_query) {
    RunResult r = Chromium({"--dump-dom"}, Url(path_and_query));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(Has(r.out, "</html>")) << r.out << r.err;
    return r.out;
  }

  // A 1000x900 screenshot kept as a test artifact; checks it is a PNG.
  void Screenshot(const std::string& path_and_query, const std::string& name) {
    std::filesystem::create_directories(GORANK_ARTIFACT_DIR);
    const std::string file = std::string(GORANK_ARTIFACT_DIR) + "/" + name;
    std::filesystem::remove(file);
    RunResult r = Chromium({"--screenshot=" + file, "--window-size=1000,900"},
                           Url(path_and_query));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::string png = ReadFile(file);
    ASSERT_GT(png.size(), 1000u) << "no screenshot at " << file << "\n"
                                 << r.err;
    EXPECT_EQ(png.substr(0, 4), "\x89PNG");
  }

  testing::TempDir dir_;
  const std::string token_file_ = dir_.File("admin.token");
  std::string chromium_;
  RankdProcess rankd_;
  std::string log_;
  int grpc_port_ = 0;
  int http_port_ = 0;
  int runs_ = 0;
};

TEST_F(WebBrowserTest, VerifiesARealCertificateAndAnUnknownNumber) {
  RunResult r =
      Ctl({"player", "register", "--name", "张三", "--gender", "male",
           "--agency", "000", "--resident-id", kResidentId, "--rank", "1k"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"--json", "cert", "issue", "--player", "1", "--grade", "1d",
           "--agency", "000", "--reference", "全国围棋锦标赛 第三名"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto issued = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(issued.is_discarded()) << r.out;
  const std::string number = issued["certificate"]["number"].get<std::string>();
  ASSERT_EQ(number.size(), 9u) << r.out;

  // The printed QR code's URL: the form with the number filled in.
  const std::string form = Dom("/verify?number=" + number);
  EXPECT_TRUE(Has(form, "value=\"" + number + "\"")) << form;
  EXPECT_TRUE(Has(form, "证书验证")) << form;

  // The filled-in form's answer: 张三 is %E5%BC%A0%E4%B8%89.
  const std::string valid_query =
      "/verify?number=" + number + "&name=%E5%BC%A0%E4%B8%89";
  const std::string valid = Dom(valid_query);
  EXPECT_TRUE(Has(valid, "data-outcome=\"VALID\"")) << valid;
  EXPECT_TRUE(Has(valid, "证书有效")) << valid;
  EXPECT_TRUE(Has(valid, "张*")) << valid;
  EXPECT_TRUE(Has(valid, "业余1段")) << valid;
  EXPECT_TRUE(Has(valid, "<td>" + number + "</td>")) << valid;
  EXPECT_FALSE(Has(valid, kResidentId)) << valid;
  // The birth date 1949-12-31 in every form a page could print it (a bare
  // "1949" also turns up in form tokens' timestamps and digests).
  for (const char* birth : {"1949-12-31", "19491231", "1949年12月", "1949/12"})
    EXPECT_FALSE(Has(valid, birth)) << valid;
  ASSERT_NO_FATAL_FAILURE(Screenshot(valid_query, "web_verify_valid.png"));

  const std::string unknown_query =
      "/verify?number=000009999&name=%E5%BC%A0%E4%B8%89";
  const std::string unknown = Dom(unknown_query);
  EXPECT_TRUE(Has(unknown, "data-outcome=\"NOT_VALID\"")) << unknown;
  EXPECT_TRUE(Has(unknown, "未找到与该编号和姓名相符的有效证书。")) << unknown;
  EXPECT_FALSE(Has(unknown, "id=\"certificate\"")) << unknown;
  ASSERT_NO_FATAL_FAILURE(
      Screenshot(unknown_query, "web_verify_not_valid.png"));

  const std::string english = Dom(valid_query + "&lang=en");
  EXPECT_TRUE(Has(english, "Valid certificate")) << english;
  EXPECT_TRUE(Has(english, "1 dan")) << english;
  ASSERT_NO_FATAL_FAILURE(Screenshot("/?lang=en", "web_home_en.png"));
}

}  // namespace
}  // namespace gorank::web
