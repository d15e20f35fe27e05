// What every page of the public web page shares (services/web/site.h), through
// the real server: validators and caching, refusals in the page's language,
// the federation's title, footer and logo, and the shell's keyboard and
// search affordances.
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"
#include "tests/web/web_fixture.h"

namespace gorank::web {
namespace {

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class WebSiteTest : public WebFixture {};

TEST_F(WebSiteTest, PublicPagesCarryAnETagAndAnswer304WhenUnchanged) {
  ASSERT_NO_FATAL_FAILURE(StartServer());
  httplib::Result home = Get("/");
  ASSERT_TRUE(home);
  ASSERT_EQ(home->status, 200);
  const std::string etag = home->get_header_value("ETag");
  ASSERT_EQ(etag.size(), 34u) << etag;  // "<32 hex digits>"
  EXPECT_EQ(home->get_header_value_count("Cache-Control"), 1u);
  EXPECT_EQ(home->get_header_value("Cache-Control"), "public, max-age=60");

  auto client = WebClient();
  httplib::Result again = client->Get("/", {{"If-None-Match", etag}});
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 304);
  EXPECT_TRUE(again->body.empty());
  httplib::Result weak = client->Get("/", {{"If-None-Match", "W/" + etag}});
  ASSERT_TRUE(weak);
  EXPECT_EQ(weak->status, 304);
  // Another page, another validator; the English page is another page.
  httplib::Result en = client->Get("/?lang=en", {{"If-None-Match", etag}});
  ASSERT_TRUE(en);
  EXPECT_EQ(en->status, 200);
  EXPECT_NE(en->get_header_value("ETag"), etag);

  // The JSON twin is cacheable too.
  httplib::Result api = Get("/api/v1/verify?number=" + cert_.number() +
                            "&name=%E5%BC%A0%E4%B8%89");
  ASSERT_TRUE(api);
  EXPECT_EQ(api->status, 200);
  EXPECT_FALSE(api->get_header_value("ETag").empty());

  // A page with a form token, and every refusal, is never cached.
  httplib::Result notices = Get("/notices");
  ASSERT_TRUE(notices);
  EXPECT_EQ(notices->get_header_value("Cache-Control"), "no-store");
  EXPECT_TRUE(notices->get_header_value("ETag").empty());
  httplib::Result missing = Get("/no-such-page");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  EXPECT_EQ(missing->get_header_value("Cache-Control"), "no-store");
}

TEST_F(WebSiteTest, AChinesePageShowsNoEnglishRefusalText) {
  ASSERT_NO_FATAL_FAILURE(StartServer());
  // The page's own check (a malformed id) and rankd's (an unknown event).
  httplib::Result bad = Get("/pairing?event=abc");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_TRUE(Has(bad->body, "请求有误")) << bad->body;
  EXPECT_FALSE(Has(bad->body, "event must be")) << bad->body;
  EXPECT_TRUE(Has(bad->body, "data-code=\"INVALID_ARGUMENT\"")) << bad->body;
  httplib::Result unknown = Get("/pairing?event=999");
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->status, 404);
  EXPECT_TRUE(Has(unknown->body, "没有找到")) << unknown->body;
  EXPECT_FALSE(Has(unknown->body, "event 999")) << unknown->body;
  // The English page keeps rankd's own words, which say what to fix.
  httplib::Result en = Get("/pairing?event=abc&lang=en");
  ASSERT_TRUE(en);
  EXPECT_TRUE(Has(en->body, "event must be an event id")) << en->body;
  // A page that does not exist says so in Chinese, with the path.
  httplib::Result none = Get("/no-such-page");
  ASSERT_TRUE(none);
  EXPECT_TRUE(Has(none->body, "页面不存在。 (/no-such-page)")) << none->body;
}

TEST_F(WebSiteTest, TheShellHasASkipLinkNavigationAndALabelledSearchBox) {
  ASSERT_NO_FATAL_FAILURE(StartServer());
  httplib::Result home = Get("/");
  ASSERT_TRUE(home);
  const std::string& b = home->body;
  EXPECT_TRUE(Has(b, "<html lang=\"zh-CN\"")) << b;
  EXPECT_TRUE(Has(b, "<a class=\"skip\" href=\"#main\">跳到正文</a>")) << b;
  EXPECT_TRUE(Has(b, "<main id=\"main\">")) << b;
  for (const char* link :
       {"href=\"/search?lang=zh\"", "href=\"/ratings?lang=zh\"",
        "href=\"/events?lang=zh\"", "href=\"/notices?lang=zh\""})
    EXPECT_TRUE(Has(b, link)) << link;
  EXPECT_TRUE(Has(b, "<label for=\"site-q\">")) << b;
  EXPECT_TRUE(Has(b, "<input id=\"site-q\" name=\"q\" type=\"search\"")) << b;
  httplib::Result en = Get("/?lang=en");
  ASSERT_TRUE(en);
  EXPECT_TRUE(Has(en->body, "<html lang=\"en\"")) << en->body;
  EXPECT_TRUE(Has(en->body, "href=\"/ratings?lang=en\"")) << en->body;
  EXPECT_TRUE(Has(en->body, "name=\"lang\" value=\"en\"")) << en->body;
}

TEST_F(WebSiteTest, AFederationSetsItsTitleFooterAndLogo) {
  testing::TempDir dir;
  const std::string logo = dir.File("logo.png");
  const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + "rest";
  std::ofstream(logo, std::ios::binary) << png;
  adjust_config_ = [&](server::ServerConfig& c) {
    c.web_title_zh = "浙江省围棋协会段位查询";
    c.web_title_en = "Zhejiang Weiqi Association";
    c.web_footer_zh = "浙江省围棋协会 版权所有";
    c.web_logo_file = logo;
  };
  ASSERT_NO_FATAL_FAILURE(StartServer());
  httplib::Result home = Get("/");
  ASSERT_TRUE(home);
  const std::string& b = home->body;
  EXPECT_TRUE(Has(b, "<title>首页 - 浙江省围棋协会段位查询</title>")) << b;
  EXPECT_TRUE(
      Has(b, "<img src=\"/logo\" alt=\"标志：浙江省围棋协会段位查询\">"))
      << b;
  EXPECT_TRUE(Has(b, "<p>浙江省围棋协会 版权所有</p>")) << b;
  // The built-in policy line stays under the federation's footer.
  EXPECT_TRUE(Has(b, "不显示身份证号码和出生日期")) << b;
  httplib::Result en = Get("/?lang=en");
  ASSERT_TRUE(en);
  EXPECT_TRUE(Has(en->body, "Zhejiang Weiqi Association")) << en->body;
  httplib::Result image = Get("/logo");
  ASSERT_TRUE(image);
  EXPECT_EQ(image->status, 200);
  EXPECT_EQ(image->get_header_value("Content-Type"), "image/png");
  EXPECT_EQ(image->body, png);
}

TEST_F(WebSiteTest, ALogoThatIsNeitherPngNorSvgStopsTheStartNamingIt) {
  testing::TempDir dir;
  const std::string logo = dir.File("logo.gif");
  std::ofstream(logo, std::ios::binary) << "GIF89a....";
  testing::InProcessOptions options;
  options.quiet = true;
  options.die_on_error = false;
  options.adjust = [&](server::ServerConfig& c, const std::string&) {
    c.http_listen = "127.0.0.1:0";
    c.web_logo_file = logo;
  };
  testing::InProcessServer s(options);
  ASSERT_FALSE(s.status().ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Has(std::string(s.status().message()), logo)) << s.status();
  EXPECT_TRUE(
      Has(std::string(s.status().message()), "neither a PNG nor an SVG"))
      << s.status();
}

}  // namespace
}  // namespace gorank::web
