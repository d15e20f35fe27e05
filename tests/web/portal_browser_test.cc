// Acceptance test of the public portal in a real browser (issue #21): the
// real rankd binary on a temp database, a registry seeded with rankctl alone
// (16 players from the office's file, a Swiss imported from the director's
// EGF file and closed, so ratings exist, a certificate), then every public
// page loaded in headless Chromium through chromedriver at a phone and a
// desktop width. For each page: its DOM holds what the page is for, the
// document does not scroll sideways at phone width, axe-core (injected into
// the page) reports no serious or critical violation, and nothing the
// public-data policy withholds (resident ID numbers, birth dates) appears.
// Screenshots are kept in <build>/test-artifacts/portal/. Without Chromium,
// chromedriver or axe-core (deploy/setup.sh test installs them) the test
// fails when CI is set and is skipped otherwise.
#include <httplib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/rankd_cli_fixture.h"
#include "tests/testing/seed_registry.h"
#include "tests/testing/webdriver.h"

namespace gorank::web {
namespace {

using nlohmann::json;
using testing::RunResult;
using testing::WebDriver;

constexpr char kResidentId[] = "11010519491231002X";  // born 1949-12-31

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The forms in which a page could print the birth date YYYY-MM-DD.
std::vector<std::string> DateForms(const std::string& ymd) {
  const std::string y = ymd.substr(0, 4), m = ymd.substr(5, 2),
                    d = ymd.substr(8, 2);
  return {ymd, y + m + d, y + "/" + m + "/" + d,
          y + "年" + std::to_string(std::stoi(m)) + "月" +
              std::to_string(std::stoi(d)) + "日"};
}

// Where axe-core's axe.min.js is: $GORANK_AXE_JS, else where deploy/setup.sh
// test puts it.
std::string AxePath() {
  if (const char* p = std::getenv("GORANK_AXE_JS")) return p;
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string base = cache
                               ? std::string(cache)
                               : std::string(home ? home : "/tmp") + "/.cache";
  return base + "/rankd-test/axe-core-" GORANK_AXE_VERSION
                "/node_modules/axe-core/axe.min.js";
}

// One page the test visits: its path and what its DOM must contain.
struct Page {
  std::string name;  // the screenshot's file name stem
  std::string path;  // path and query
  std::vector<std::string> expect;
};

class PortalBrowserTest : public testing::RankdCliTest {
 protected:
  void SetUp() override {
    const std::string chromium = testing::FindOnPath("chromium");
    const std::string driver = testing::FindOnPath("chromedriver");
    axe_ = testing::ReadFile(AxePath());
    std::string missing;
    if (chromium.empty()) missing += " chromium";
    if (driver.empty()) missing += " chromedriver (chromium-driver)";
    if (axe_.empty()) missing += " axe-core (" + AxePath() + ")";
    if (!missing.empty()) {
      if (std::getenv("CI") != nullptr)
        FAIL() << "missing:" << missing << "; run deploy/setup.sh test";
      GTEST_SKIP() << "missing:" << missing;
    }
    testing::RankdCliTest::SetUp();
    auto d = WebDriver::Start(driver, chromium);
    ASSERT_TRUE(d.ok()) << d.status();
    browser_ = std::move(*d);
    std::filesystem::create_directories(kArtifacts);
  }

  // As the office and the director would: players from the file, a Swiss
  // from its EGF file, closed (ratings), a resident with an ID number, a
  // certificate.
  void Seed() {
    RunResult r = Ctl({"token", "create", "--role", "agency_operator",
                       "--agency", "110", "--label", "director"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const size_t at = r.out.rfind("rkd_");
    ASSERT_NE(at, std::string::npos) << r.out;
    std::ofstream(director_) << r.out.substr(at, 68) << "\n";

    std::istringstream players(testing::kPlayersFile);
    for (std::string line; std::getline(players, line);) {
      std::vector<std::string> f;
      std::istringstream cells(line);
      for (std::string c; std::getline(cells, c, '\t');) f.push_back(c);
      ASSERT_EQ(f.size(), 5u) << line;
      r = Ctl({"--json", "player", "register", "--name", f[0], "--latin-name",
               f[1], "--agency", "110", "--rank", f[2], "--rank-basis",
               "certificate before 2026", "--gender", f[3], "--birth-date",
               f[4]});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      ids_[f[1]] = json::parse(r.out)["player"]["id"].get<std::string>();
      birth_dates_.push_back(f[4]);
    }
    r = Ctl({"--json", "player", "register", "--name", "张三", "--gender",
             "male", "--agency", "000", "--resident-id", kResidentId, "--rank",
             "1k"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    zhang_ = json::parse(r.out)["player"]["id"].get<std::string>();
    birth_dates_.push_back("1949-12-31");

    r = Ctl({"--json", "cert", "issue", "--player", zhang_, "--grade", "1d",
             "--agency", "000", "--reference", "全国围棋锦标赛 第三名"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    number_ = json::parse(r.out)["certificate"]["number"].get<std::string>();
    // What the certificate's QR code carries.
    r = Ctl({"cert", "statement", number_});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    statement_ = r.out.substr(0, r.out.find_last_not_of("\n") + 1);
    ASSERT_EQ(statement_.rfind("GR1.", 0), 0u) << r.out;
    // A certificate issued, then revoked.
    r = Ctl({"--json", "player", "register", "--name", "李四", "--gender",
             "female", "--agency", "000", "--rank", "1k", "--birth-date",
             "1990-02-03"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string li =
        json::parse(r.out)["player"]["id"].get<std::string>();
    birth_dates_.push_back("1990-02-03");
    r = Ctl({"--json", "cert", "issue", "--player", li, "--grade", "1d",
             "--agency", "000", "--reference", "全国围棋锦标赛 第五名"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    revoked_ = json::parse(r.out)["certificate"]["number"].get<std::string>();
    r = Ctl({"cert", "revoke", revoked_, "--reason", "颁发有误"});
    ASSERT_EQ(r.exit_code, 0) << r.err;

    r = Ctl({"--json",
             "event",
             "create",
             "--organiser",
             "110",
             "--start",
             "2026-03-01",
             "--end",
             "2026-03-03",
             "--level",
             "national",
             "--competition",
             "national_amateur_open",
             "--time-class",
             "A",
             "--name",
             "National Amateur Open 2026",
             "--sub-event",
             "open_individual",
             "--format",
             "swiss",
             "--rounds",
             "5"},
            false, director_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    event_ = json::parse(r.out)["event"]["id"].get<std::string>();
    const std::string egf = dir_.File("swiss.h9");
    std::ofstream(egf, std::ios::binary) << testing::kSwissEgf;
    r = Ctl({"event", "import", egf, "--event", event_}, false, director_);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    r = Ctl({"event", "close", event_}, false, director_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  RunResult Ctl(std::vector<std::string> args, bool admin = true,
                const std::string& token_file = "") {
    if (!token_file.empty())
      args.insert(args.begin(), {"--token-file", token_file});
    return testing::RankdCliTest::Ctl(args, admin);
  }

  std::string Url(const std::string& path) {
    return "http://127.0.0.1:" + std::to_string(rankd_.http_port()) + path;
  }

  // Nothing the public-data policy withholds is in `text`.
  void ExpectNothingWithheld(const std::string& text) {
    EXPECT_FALSE(Has(text, kResidentId));
    EXPECT_FALSE(Has(text, "resident_id"));
    for (const std::string& born : birth_dates_) {
      for (const std::string& form : DateForms(born))
        EXPECT_FALSE(Has(text, form)) << form;
    }
  }

  // Loads `page` at `width`, checks it as the file comment says.
  void Visit(const Page& page, int width) {
    SCOPED_TRACE(page.path + " at " + std::to_string(width) + " px");
    // The answer itself: 200, HTML.
    httplib::Client http("127.0.0.1", rankd_.http_port());
    httplib::Result got = http.Get(page.path);
    ASSERT_TRUE(got) << httplib::to_string(got.error());
    EXPECT_EQ(got->status, 200) << got->body;

    ASSERT_TRUE(browser_->Open(Url(page.path), width, 900).ok());
    absl::StatusOr<std::string> dom = browser_->Dom();
    ASSERT_TRUE(dom.ok()) << dom.status();
    for (const std::string& e : page.expect) EXPECT_TRUE(Has(*dom, e)) << e;
    ExpectNothingWithheld(*dom);
    ExpectNothingWithheld(got->body);
    absl::StatusOr<int> scroll = browser_->ScrollWidth();
    ASSERT_TRUE(scroll.ok()) << scroll.status();
    EXPECT_LE(*scroll, width) << "the page scrolls sideways";

    absl::StatusOr<std::string> png = browser_->Screenshot();
    ASSERT_TRUE(png.ok()) << png.status();
    EXPECT_EQ(png->substr(0, 4), "\x89PNG");
    std::ofstream(std::string(kArtifacts) + "/" + page.name + "-" +
                      std::to_string(width) + ".png",
                  std::ios::binary)
        << *png;

    // axe-core: no serious or critical violation.
    absl::StatusOr<json> loaded =
        browser_->Execute(axe_ + "\n;return typeof axe;", json::array());
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    ASSERT_EQ(*loaded, "object");
    absl::StatusOr<json> found = browser_->Execute(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done("
        "r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map(n => n.target.join(' '))}))),"
        " e => done({error: String(e)}));",
        json::array(), /*async=*/true);
    ASSERT_TRUE(found.ok()) << found.status();
    ASSERT_TRUE(found->is_array()) << found->dump();
    for (const json& v : *found) {
      const std::string impact = v.value("impact", "");
      EXPECT_TRUE(impact != "serious" && impact != "critical")
          << "axe " << impact << ": " << v.dump();
    }
  }

  // The pages the test visits (built here, not in the test body: GCC 12
  // destroyed a braced list of these twice when an ASSERT returned early).
  std::vector<Page> Pages() {
    std::vector<Page> pages = {
        {"home", "/", {"证书验证", "<html lang=\"zh-CN\""}},
        {"home-en", "/?lang=en", {"<html lang=\"en\""}},
        {"verify",
         "/verify?number=" + number_ + "&name=%E5%BC%A0%E4%B8%89",
         {"data-outcome=\"VALID\"", "业余1段", number_}},
        {"verify-statement",
         "/verify?number=" + number_ + "&s=" + statement_,
         {"data-signature=\"valid\"", "data-included=\"true\"",
          "data-grade=\"1d\">业余1段<", "data-revoked=\"false\"", number_}},
        {"verify-revoked",
         "/verify?number=" + revoked_ + "&name=%E6%9D%8E%E5%9B%9B",
         {"id=\"revoked-date\"", revoked_}},
        {"lookup", "/lookup?name=Wang%20Lei", {"业余5段"}},
        {"notices", "/notices", {"公示"}},
        {"pairing", "/pairing?event=" + event_ + "&round=5", {"<table"}},
        {"player", "/players/" + ids_["Wang Lei"], {"王磊", "<svg"}},
        {"player-en",
         "/players/" + ids_["Wang Lei"] + "?lang=en",
         {"Wang Lei"}},
        // The holder of a resident ID number and a certificate.
        {"player-holder", "/players/" + zhang_, {"张三", "00026****"}},
        {"ratings", "/ratings", {"王磊", "/players/" + ids_["Wang Lei"]}},
        {"events", "/events", {"National Amateur Open 2026"}},
        {"event",
         "/events/" + event_,
         {"National Amateur Open 2026", "<table"}},
        {"search", "/search?q=wang%20lei", {"/players/" + ids_["Wang Lei"]}},
    };
    return pages;
  }

  static constexpr char kArtifacts[] = GORANK_ARTIFACT_DIR "/portal";
  std::unique_ptr<WebDriver> browser_;
  std::string axe_;
  const std::string director_ = dir_.File("director.token");
  std::map<std::string, std::string> ids_;  // Latin name -> player id
  std::vector<std::string> birth_dates_;
  std::string zhang_, number_, event_, statement_, revoked_;
};

TEST_F(PortalBrowserTest, EveryPublicPageAtPhoneAndDesktopWidth) {
  ASSERT_NO_FATAL_FAILURE(Seed());
  const std::vector<Page> pages = Pages();
  for (const Page& page : pages) {
    for (int width : {360, 1280}) ASSERT_NO_FATAL_FAILURE(Visit(page, width));
  }
  // Every answer that is not a page: the JSON twins and the downloads.
  httplib::Client http("127.0.0.1", rankd_.http_port());
  const std::vector<std::string> answers = {
      "/api/v1/verify?number=" + number_ + "&name=%E5%BC%A0%E4%B8%89",
      "/api/v1/lookup?name=%E5%BC%A0%E4%B8%89",
      "/api/v1/notices",
      "/api/v1/players/" + zhang_,
      "/api/v1/players/" + ids_["Wang Lei"],
      "/api/v1/ratings",
      "/api/v1/ratings/months",
      "/api/v1/events",
      "/api/v1/events/" + event_,
      "/api/v1/search?q=%E5%BC%A0%E4%B8%89",
      "/api/v1/pairing?event=" + event_ + "&round=5",
      "/api/v1/verify?number=" + revoked_ + "&name=%E6%9D%8E%E5%9B%9B",
      "/ratings.csv",
      "/ratings.xlsx",
      "/events/" + event_ + ".egf",
      "/events/" + event_ + ".csv",
  };
  for (const std::string& path : answers) {
    SCOPED_TRACE(path);
    httplib::Result got = http.Get(path);
    if (!got) {
      ADD_FAILURE() << "no answer: " << httplib::to_string(got.error());
      continue;
    }
    EXPECT_EQ(got->status, 200) << got->body;
    EXPECT_FALSE(got->body.empty());
    ExpectNothingWithheld(got->body);
  }
}

// The keyboard alone: the first Tab reaches the "skip to the content" link
// (shown when focused), Enter on it moves to the content; the next Tabs
// walk the navigation in order.
TEST_F(PortalBrowserTest, KeyboardReachesTheContentAndTheNavigation) {
  ASSERT_TRUE(browser_->Open(Url("/"), 360, 900).ok());
  const auto active = [&]() -> std::string {
    absl::StatusOr<json> v = browser_->Execute(
        "const a = document.activeElement;"
        "return a ? (a.getAttribute('href') || a.id || a.tagName) : '';",
        json::array());
    return v.ok() && v->is_string() ? v->get<std::string>() : "?";
  };
  ASSERT_TRUE(browser_->PressKeys({WebDriver::kTab}).ok());
  EXPECT_EQ(active(), "#main");
  absl::StatusOr<json> shown = browser_->Execute(
      "return document.activeElement.getBoundingClientRect().left >= 0;",
      json::array());
  ASSERT_TRUE(shown.ok()) << shown.status();
  EXPECT_EQ(*shown, true) << "the focused skip link is off screen";
  ASSERT_TRUE(browser_->PressKeys({WebDriver::kEnter}).ok());
  absl::StatusOr<json> hash =
      browser_->Execute("return location.hash;", json::array());
  ASSERT_TRUE(hash.ok()) << hash.status();
  EXPECT_EQ(*hash, "#main");

  ASSERT_TRUE(browser_->Open(Url("/"), 1280, 900).ok());
  std::vector<std::string> order;
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(browser_->PressKeys({WebDriver::kTab}).ok());
    order.push_back(active());
  }
  EXPECT_EQ(order,
            (std::vector<std::string>{"#main", "/?lang=zh", "/search?lang=zh",
                                      "/ratings?lang=zh", "/events?lang=zh",
                                      "/notices?lang=zh"}));
}

}  // namespace
}  // namespace gorank::web
