// The pure side of the web page: escaping, languages, ranks, the page shell
// and the HTTP status mapping.
#include "services/web/html.h"

#include <string>

#include "gtest/gtest.h"
#include "services/web/http_status.h"

namespace gorank::web {
namespace {

TEST(HtmlTest, EscapesEverythingThatCouldBreakOutOfTextOrAttributes) {
  EXPECT_EQ(HtmlEscape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(HtmlEscape("张三 (Zhang San)"), "张三 (Zhang San)");
  EXPECT_EQ(HtmlEscape(""), "");
}

TEST(HtmlTest, UrlEncodesAllButUnreservedCharacters) {
  EXPECT_EQ(UrlEncode("张三"), "%E5%BC%A0%E4%B8%89");
  EXPECT_EQ(UrlEncode("a b&c=d/e?"), "a%20b%26c%3Dd%2Fe%3F");
  EXPECT_EQ(UrlEncode("Az09-_.~"), "Az09-_.~");
}

TEST(HtmlTest, ChineseIsTheDefaultLanguage) {
  EXPECT_EQ(ParseLang(""), Lang::kZh);
  EXPECT_EQ(ParseLang("zh"), Lang::kZh);
  EXPECT_EQ(ParseLang("fr"), Lang::kZh);
  EXPECT_EQ(ParseLang("en"), Lang::kEn);
  EXPECT_STREQ(LangCode(Lang::kEn), "en");
  EXPECT_STREQ(TextsFor(Lang::kZh).verify_heading, "证书验证");
  EXPECT_STREQ(TextsFor(Lang::kEn).verify_heading, "Verify a certificate");
}

TEST(HtmlTest, RanksReadAsPeopleWriteThem) {
  EXPECT_EQ(RankLabel(Lang::kZh, 1, 5, "5k"), "5级");
  EXPECT_EQ(RankLabel(Lang::kZh, 2, 3, "3d"), "业余3段");
  EXPECT_EQ(RankLabel(Lang::kZh, 3, 9, "9p"), "职业9段");
  EXPECT_EQ(RankLabel(Lang::kEn, 1, 5, "5k"), "5 kyu");
  EXPECT_EQ(RankLabel(Lang::kEn, 2, 3, "3d"), "3 dan");
  EXPECT_EQ(RankLabel(Lang::kEn, 3, 9, "9p"), "9 dan pro");
  EXPECT_EQ(RankLabel(Lang::kZh, 4, 3, "3k"), "五子棋3级");
  EXPECT_EQ(RankLabel(Lang::kZh, 5, 2, "2d"), "五子棋2段");
  EXPECT_EQ(RankLabel(Lang::kEn, 5, 2, "2d"), "2 dan (Gomoku)");
  EXPECT_EQ(RankLabel(Lang::kEn, 0, 0, "?"), "?");
}

TEST(HtmlTest, DaysAreShanghaiDays) {
  EXPECT_EQ(ShanghaiDay(0), "1970-01-01");
  EXPECT_EQ(ShanghaiDay(16 * 3600), "1970-01-02");  // 00:00 in Shanghai
}

TEST(HtmlTest, PageShellHasCharsetLanguageAndASwitchLink) {
  const std::string zh =
      RenderPage(Lang::kZh, "<T>", "<p>body</p>", "/lookup?name=%E5%BC%A0");
  EXPECT_NE(zh.find("<!DOCTYPE html>"), std::string::npos);
  EXPECT_NE(zh.find("<meta charset=\"utf-8\">"), std::string::npos);
  EXPECT_NE(zh.find("<html lang=\"zh-CN\">"), std::string::npos);
  EXPECT_NE(zh.find("<title>&lt;T&gt; - "), std::string::npos) << zh;
  EXPECT_NE(zh.find("<p>body</p>"), std::string::npos);
  EXPECT_NE(zh.find("href=\"/lookup?name=%E5%BC%A0&amp;lang=en\""),
            std::string::npos)
      << zh;
  const std::string en = RenderPage(Lang::kEn, "T", "", "/");
  EXPECT_NE(en.find("<html lang=\"en\">"), std::string::npos);
  EXPECT_NE(en.find("href=\"/?lang=zh\""), std::string::npos) << en;
  EXPECT_EQ(WithLang("/notices", Lang::kEn), "/notices?lang=en");
  EXPECT_EQ(WithLang("/verify?number=1", Lang::kZh),
            "/verify?number=1&lang=zh");
}

TEST(HttpStatusTest, GrpcCodesMapToHttp) {
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kOk), 200);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kInvalidArgument), 400);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kNotFound), 404);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kFailedPrecondition), 409);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kAlreadyExists), 409);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kResourceExhausted), 429);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kUnavailable), 503);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kDeadlineExceeded), 504);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kPermissionDenied), 403);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kInternal), 500);
  EXPECT_EQ(CodeName(absl::StatusCode::kResourceExhausted),
            "RESOURCE_EXHAUSTED");
}

TEST(HttpStatusTest, RetryAfterIsWholeSecondsRoundedUp) {
  EXPECT_EQ(RetryAfterSeconds(0), 1);
  EXPECT_EQ(RetryAfterSeconds(1), 1);
  EXPECT_EQ(RetryAfterSeconds(1000), 1);
  EXPECT_EQ(RetryAfterSeconds(1001), 2);
  EXPECT_EQ(RetryAfterSeconds(2500), 3);
}

}  // namespace
}  // namespace gorank::web
