// The public web page against a real in-process rankd: pages and JSON API
// repeat the gRPC answers, bad input is a precise HTTP error with no change,
// no ID number or birth date appears anywhere, both languages, and the
// per-client HTTP limits.
#include <optional>
#include <string>
#include <vector>

#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"
#include "services/web/html.h"
#include "tests/testing/database_snapshot.h"
#include "tests/web/web_fixture.h"

namespace gorank::web {
namespace {

using google::protobuf::util::JsonStringToMessage;

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// No page or JSON answer may carry the resident ID or the birth date.
void ExpectNoPersonalData(const std::string& body) {
  EXPECT_FALSE(Has(body, kResidentId)) << body;
  EXPECT_FALSE(Has(body, "110105")) << body;
  // The birth date 1949-12-31 in every form a page could print it (a bare
  // "1949" also turns up in form tokens' timestamps and digests).
  for (const char* birth : {"1949-12-31", "19491231", "1949年12月", "1949/12"})
    EXPECT_FALSE(Has(body, birth)) << body;
  EXPECT_FALSE(Has(body, "resident_id")) << body;
  EXPECT_FALSE(Has(body, "birth_date")) << body;
}

class WebServerTest : public WebFixture {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(StartServer()); }

  v1::VerifyCertificateResponse GrpcVerify(const std::string& number,
                                           const std::string& name) {
    v1::VerifyCertificateRequest req;
    req.set_number(number);
    req.set_holder_name(name);
    v1::VerifyCertificateResponse resp;
    EXPECT_TRUE(certs_->VerifyCertificate(Context("").get(), req, &resp).ok());
    return resp;
  }
};

TEST_F(WebServerTest, VerifyPageShowsARealCertificate) {
  auto r = Get("/verify?number=000250001&name=" + UrlEncode("张三"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_TRUE(Has(r->body, "data-outcome=\"VALID\"")) << r->body;
  EXPECT_TRUE(Has(r->body, "证书有效")) << r->body;
  EXPECT_TRUE(Has(r->body, "张*")) << r->body;
  EXPECT_TRUE(Has(r->body, "业余1段")) << r->body;
  EXPECT_TRUE(Has(r->body, "2025-12-10")) << r->body;
  EXPECT_TRUE(Has(r->body, "000250001")) << r->body;
  ExpectNoPersonalData(r->body);

  auto en =
      Get("/verify?number=000250001&name=" + UrlEncode("张三") + "&lang=en");
  ASSERT_TRUE(en);
  EXPECT_TRUE(Has(en->body, "Valid certificate")) << en->body;
  EXPECT_TRUE(Has(en->body, "1 dan")) << en->body;
  EXPECT_TRUE(Has(en->body, "<html lang=\"en\">")) << en->body;
}

TEST_F(WebServerTest, UnknownNumberAndWrongNameShowTheSameNotValidPage) {
  auto unknown = Get("/verify?number=000259999&name=" + UrlEncode("张三"));
  auto wrong = Get("/verify?number=000250001&name=" + UrlEncode("张四"));
  ASSERT_TRUE(unknown);
  ASSERT_TRUE(wrong);
  EXPECT_EQ(unknown->status, 200);
  EXPECT_TRUE(Has(unknown->body, "data-outcome=\"NOT_VALID\""))
      << unknown->body;
  EXPECT_TRUE(Has(unknown->body, "未找到与该编号和姓名相符的有效证书。"))
      << unknown->body;
  EXPECT_FALSE(Has(unknown->body, "id=\"certificate\"")) << unknown->body;
  // The pages differ only in the language-switch link, which repeats the query.
  auto strip = [](std::string body) {
    const size_t at = body.find("id=\"lang-switch\"");
    return body.substr(0, at) + body.substr(body.find("</a>", at));
  };
  EXPECT_EQ(strip(unknown->body), strip(wrong->body));

  auto json_unknown =
      Get("/api/v1/verify?number=000259999&name=" + UrlEncode("张三"));
  auto json_wrong =
      Get("/api/v1/verify?number=000250001&name=" + UrlEncode("张四"));
  ASSERT_TRUE(json_unknown);
  ASSERT_TRUE(json_wrong);
  EXPECT_EQ(json_unknown->status, 200);
  EXPECT_EQ(json_unknown->body, json_wrong->body);
  EXPECT_EQ(json_unknown->body, "{\"outcome\":\"VERIFY_OUTCOME_NOT_VALID\"}");
}

TEST_F(WebServerTest, QrCodeUrlShowsTheFormWithTheNumberFilledIn) {
  auto r = Get("/verify?number=000250001");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_TRUE(Has(r->body,
                  "name=\"number\" inputmode=\"numeric\" maxlength=\"9\" "
                  "value=\"000250001\""))
      << r->body;
  EXPECT_FALSE(Has(r->body, "data-outcome")) << r->body;
  // Whatever is in the URL is escaped, never markup.
  auto evil =
      Get("/verify?number=" + UrlEncode("\"><script>alert(1)</script>"));
  ASSERT_TRUE(evil);
  EXPECT_FALSE(Has(evil->body, "<script>")) << evil->body;
  EXPECT_TRUE(Has(evil->body, "&quot;&gt;&lt;script&gt;")) << evil->body;
}

TEST_F(WebServerTest, JsonAnswersAreTheGrpcAnswers) {
  auto r = Get("/api/v1/verify?number=000250001&name=" + UrlEncode("张三"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"),
            "application/json; charset=utf-8");
  v1::VerifyCertificateResponse from_web;
  ASSERT_TRUE(JsonStringToMessage(r->body, &from_web).ok()) << r->body;
  EXPECT_EQ(from_web.SerializeAsString(),
            GrpcVerify("000250001", "张三").SerializeAsString());
  EXPECT_EQ(from_web.outcome(), v1::VERIFY_OUTCOME_VALID);
  EXPECT_TRUE(Has(r->body, "\"masked_holder_name\":\"张*\""))
      << r->body;  // proto field names
  ExpectNoPersonalData(r->body);

  auto lookup = Get("/api/v1/lookup?name=" + UrlEncode("张三"));
  ASSERT_TRUE(lookup);
  EXPECT_EQ(lookup->status, 200);
  v1::LookupRankResponse web_lookup, grpc_lookup;
  ASSERT_TRUE(JsonStringToMessage(lookup->body, &web_lookup).ok())
      << lookup->body;
  v1::LookupRankRequest lreq;
  lreq.set_name("张三");
  ASSERT_TRUE(certs_->LookupRank(Context("").get(), lreq, &grpc_lookup).ok());
  EXPECT_EQ(web_lookup.SerializeAsString(), grpc_lookup.SerializeAsString());
  ASSERT_EQ(web_lookup.players_size(), 1);
  EXPECT_EQ(web_lookup.players(0).rank().notation(), "1d");
  ExpectNoPersonalData(lookup->body);
}

TEST_F(WebServerTest, LookupPageShowsRankAndCertificates) {
  auto r = Get("/lookup?name=" + UrlEncode("张三"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_TRUE(Has(r->body, "业余1段")) << r->body;
  // Public-data policy: a holder's certificate numbers are not listed, only
  // prefix and year (verification takes the whole number and the name).
  EXPECT_TRUE(Has(r->body, "00025****")) << r->body;
  EXPECT_FALSE(Has(r->body, "000250001")) << r->body;
  EXPECT_TRUE(Has(r->body, "id=\"numbers-masked\"")) << r->body;
  EXPECT_TRUE(Has(r->body, "有效")) << r->body;
  ExpectNoPersonalData(r->body);
  auto none = Get("/lookup?name=" + UrlEncode("无名") + "&lang=en");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 200);
  EXPECT_TRUE(Has(none->body, "No player of this name was found."))
      << none->body;
}

TEST_F(WebServerTest, NoticesListAndObjectionsChangeState) {
  const v1::Player strong = MustRegister("李四", "3d", "");
  const v1::Certificate four = MustIssue(strong.id(), "4d");
  ASSERT_EQ(four.state(), v1::CERTIFICATE_STATE_UNDER_NOTICE);

  auto page = Get("/notices");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_TRUE(Has(page->body, four.number())) << page->body;
  EXPECT_TRUE(Has(page->body, "李四")) << page->body;
  // The basis of the grant and the holder's own agency are shown; who
  // issued it with which token is not.
  EXPECT_TRUE(Has(page->body,
                  "<span class=\"basis\">比赛成绩: 2025 national championship"))
      << page->body;
  EXPECT_TRUE(Has(page->body, "持证人所属单位")) << page->body;
  EXPECT_FALSE(Has(page->body, "token:")) << page->body;
  EXPECT_TRUE(Has(page->body, "action=\"/objections\"")) << page->body;
  EXPECT_FALSE(Has(page->body, "1990-05-01"))
      << page->body;  // birth date of 李四
  ExpectNoPersonalData(page->body);

  // The page's form, as a browser posts it.
  auto client = WebClient();
  httplib::Params form{{"number", four.number()},
                       {"text", "他在比赛中使用了软件"},
                       {"contact", "13800000000"},
                       {"lang", "zh"},
                       {"form_token", FormToken(page->body)}};
  auto lodged = client->Post("/objections", form);
  ASSERT_TRUE(lodged);
  EXPECT_EQ(lodged->status, 200) << lodged->body;
  EXPECT_TRUE(Has(lodged->body, "异议已登记")) << lodged->body;
  EXPECT_TRUE(Has(lodged->body, "id=\"objection-id\">1<")) << lodged->body;
  EXPECT_TRUE(Has(lodged->body, "href=\"/notices?lang=en\"")) << lodged->body;
  EXPECT_FALSE(Has(lodged->body, "13800000000")) << lodged->body;

  // The JSON API, with a JSON body.
  nlohmann::json body = {{"number", four.number()},
                         {"text", "second objection"},
                         {"contact", "x@example.org"}};
  auto json =
      client->Post("/api/v1/objections", body.dump(), "application/json");
  ASSERT_TRUE(json);
  EXPECT_EQ(json->status, 200) << json->body;
  v1::LodgeObjectionResponse objection;
  ASSERT_TRUE(JsonStringToMessage(json->body, &objection).ok()) << json->body;
  EXPECT_EQ(objection.objection().id(), 2);
  EXPECT_EQ(objection.objection().state(), v1::OBJECTION_STATE_OPEN);
  EXPECT_TRUE(objection.objection()
                  .contact()
                  .empty());  // only the national admin sees it

  auto notices = Get("/api/v1/notices");
  ASSERT_TRUE(notices);
  v1::ListNoticesResponse list;
  ASSERT_TRUE(JsonStringToMessage(notices->body, &list).ok()) << notices->body;
  ASSERT_EQ(list.notices_size(), 1);
  EXPECT_EQ(list.notices(0).open_objections(), 2);
  ExpectNoPersonalData(notices->body);
}

TEST_F(WebServerTest, BadInputIsAPreciseErrorAndChangesNothing) {
  // A certificate under notice, so that /notices shows a form and its token.
  MustIssue(MustRegister("李四", "3d", "").id(), "4d");
  auto notices = Get("/notices");
  ASSERT_TRUE(notices);
  const std::string form_token = FormToken(notices->body);
  ASSERT_FALSE(form_token.empty()) << notices->body;
  auto before = testing::TakeSnapshot(server_->database());
  ASSERT_TRUE(before.ok()) << before.status();

  auto r = Get("/api/v1/verify?number=12345&name=x");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  const auto j = nlohmann::json::parse(r->body, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r->body;
  EXPECT_EQ(j["code"], "INVALID_ARGUMENT");
  v1::VerifyCertificateRequest req;
  req.set_number("12345");
  req.set_holder_name("x");
  v1::VerifyCertificateResponse ignored;
  const grpc::Status s =
      certs_->VerifyCertificate(Context("").get(), req, &ignored);
  EXPECT_EQ(j["message"],
            s.error_message());  // the gRPC message, word for word
  EXPECT_FALSE(s.error_message().empty());

  auto page = Get("/verify?number=12345&name=x&lang=en");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 400);
  EXPECT_TRUE(Has(page->body, "INVALID_ARGUMENT")) << page->body;
  EXPECT_TRUE(Has(page->body, HtmlEscape(s.error_message()))) << page->body;

  auto client = WebClient();
  auto bad_json =
      client->Post("/api/v1/objections", "{not json", "application/json");
  ASSERT_TRUE(bad_json);
  EXPECT_EQ(bad_json->status, 400);
  EXPECT_TRUE(Has(bad_json->body, "LodgeObjectionRequest")) << bad_json->body;
  auto unknown_cert = client->Post(
      "/api/v1/objections",
      R"({"number":"000259999","text":"t","contact":"c"})", "application/json");
  ASSERT_TRUE(unknown_cert);
  EXPECT_EQ(unknown_cert->status, 404) << unknown_cert->body;
  auto not_under_notice =
      client->Post("/objections", httplib::Params{{"number", cert_.number()},
                                                  {"text", "t"},
                                                  {"contact", "c"},
                                                  {"form_token", form_token}});
  ASSERT_TRUE(not_under_notice);
  EXPECT_GE(not_under_notice->status, 400) << not_under_notice->body;
  EXPECT_TRUE(Has(not_under_notice->body, "id=\"error-message\""))
      << not_under_notice->body;
  auto empty_lookup = Get("/api/v1/lookup?name=");
  ASSERT_TRUE(empty_lookup);
  EXPECT_EQ(empty_lookup->status, 400) << empty_lookup->body;
  auto too_big = client->Post("/api/v1/objections", std::string(64 * 1024, 'x'),
                              "application/json");
  ASSERT_TRUE(too_big);
  EXPECT_EQ(too_big->status, 413) << too_big->body;
  auto no_route = Get("/api/v1/nothing");
  ASSERT_TRUE(no_route);
  EXPECT_EQ(no_route->status, 404);
  EXPECT_TRUE(Has(no_route->body, "\"code\":\"NOT_FOUND\"")) << no_route->body;

  auto after = testing::TakeSnapshot(server_->database());
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(*before, *after);
}

TEST_F(WebServerTest, ChineseByDefaultEnglishOnRequestWithASwitchLink) {
  auto zh = Get("/");
  ASSERT_TRUE(zh);
  EXPECT_EQ(zh->status, 200);
  EXPECT_TRUE(Has(zh->body, "<meta charset=\"utf-8\">"));
  EXPECT_TRUE(Has(zh->body, "<html lang=\"zh-CN\">"));
  EXPECT_TRUE(Has(zh->body, "证书验证"));
  EXPECT_TRUE(Has(zh->body, "段位查询"));
  EXPECT_TRUE(Has(zh->body, "href=\"/?lang=en\"")) << zh->body;
  EXPECT_TRUE(Has(zh->body, "href=\"/notices?lang=zh\"")) << zh->body;
  EXPECT_FALSE(Has(zh->body, "http://")) << "no external assets";
  EXPECT_FALSE(Has(zh->body, "https://")) << "no external assets";
  auto en = Get("/?lang=en");
  ASSERT_TRUE(en);
  EXPECT_TRUE(Has(en->body, "Verify a certificate"));
  EXPECT_TRUE(Has(en->body, "Rank lookup"));
  EXPECT_TRUE(Has(en->body, "href=\"/?lang=zh\"")) << en->body;
  auto switch_keeps_query =
      Get("/lookup?name=" + UrlEncode("张三") + "&lang=en");
  ASSERT_TRUE(switch_keeps_query);
  EXPECT_TRUE(Has(switch_keeps_query->body,
                  "href=\"/lookup?name=%E5%BC%A0%E4%B8%89&amp;lang=zh\""))
      << switch_keeps_query->body;
}

class WebLimitsTest : public WebFixture {};

TEST_F(WebLimitsTest, NoticesArePagedToTheConfiguredCap) {
  http_max_notices_ = 1;
  ASSERT_NO_FATAL_FAILURE(StartServer());
  const v1::Certificate first =
      MustIssue(MustRegister("李四", "3d", "").id(), "4d");
  const v1::Certificate second =
      MustIssue(MustRegister("王五", "3d", "").id(), "4d");
  v1::ListNoticesResponse all;
  ASSERT_TRUE(certs_->ListNotices(Context("").get(), {}, &all).ok());
  ASSERT_EQ(all.notices_size(), 2);

  auto json = Get("/api/v1/notices");
  ASSERT_TRUE(json);
  EXPECT_EQ(json->status, 200);
  EXPECT_EQ(json->get_header_value("X-Truncated"), "true");
  v1::ListNoticesResponse capped;
  ASSERT_TRUE(JsonStringToMessage(json->body, &capped).ok()) << json->body;
  ASSERT_EQ(capped.notices_size(), 1);
  EXPECT_EQ(capped.notices(0).SerializeAsString(),
            all.notices(0).SerializeAsString());

  auto page = Get("/notices?lang=en");
  ASSERT_TRUE(page);
  EXPECT_TRUE(Has(page->body, all.notices(0).certificate().number()))
      << page->body;
  EXPECT_FALSE(Has(page->body, all.notices(1).certificate().number()))
      << page->body;
  EXPECT_TRUE(Has(page->body, "Only the first certificates are shown."))
      << page->body;
  EXPECT_NE(first.number(), second.number());
}

TEST_F(WebLimitsTest,
       ABurstAboveTheHttpLimitGets429WhileOtherClientsAreServed) {
  // Burst 3, practically no refill: the 4th request of one address is refused.
  ASSERT_NO_FATAL_FAILURE(StartServer(/*http_rate=*/0.001, /*http_burst=*/3));
  auto flood = WebClient("127.0.0.1");
  std::vector<int> statuses;
  std::optional<httplib::Response> refused;
  for (int i = 0; i < 6; ++i) {
    auto r = flood->Get("/api/v1/verify?number=000250001&name=x");
    ASSERT_TRUE(r);
    statuses.push_back(r->status);
    if (r->status == 429 && !refused) refused = *r;
  }
  EXPECT_EQ(statuses, (std::vector<int>{200, 200, 200, 429, 429, 429}));
  ASSERT_TRUE(refused.has_value());
  const std::string retry = refused->get_header_value("Retry-After");
  ASSERT_FALSE(retry.empty());
  EXPECT_GE(std::stoi(retry), 1);
  const auto j = nlohmann::json::parse(refused->body, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << refused->body;
  EXPECT_EQ(j["code"], "RESOURCE_EXHAUSTED");
  EXPECT_TRUE(Has(j["message"].get<std::string>(), "retry after"))
      << refused->body;
  auto page = flood->Get("/?lang=en");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 429);
  EXPECT_TRUE(Has(page->body, "Too many requests")) << page->body;

  // Another client address is still served, page and API.
  auto other = WebClient("127.0.0.2");
  auto ok = other->Get(
      ("/verify?number=000250001&name=" + UrlEncode("张三")).c_str());
  ASSERT_TRUE(ok) << httplib::to_string(ok.error());
  EXPECT_EQ(ok->status, 200);
  EXPECT_TRUE(Has(ok->body, "data-outcome=\"VALID\"")) << ok->body;
  // And so is gRPC.
  v1::ListNoticesResponse notices;
  EXPECT_TRUE(certs_->ListNotices(Context("").get(), {}, &notices).ok());
}

TEST_F(WebLimitsTest, RankdsPublicLimitAppliesPerVisitorNotToTheWholePage) {
  // The HTTP limit off; rankd's own public gRPC limit at burst 2. The web
  // page's calls carry the visitor's address, so one visitor running out
  // does not shut out the next.
  ASSERT_NO_FATAL_FAILURE(StartServer(/*http_rate=*/0, /*http_burst=*/0,
                                      /*public_rate=*/0.001,
                                      /*public_burst=*/2));
  auto flood = WebClient("127.0.0.1");
  int refused = 0;
  std::string retry_after;
  for (int i = 0; i < 4; ++i) {
    auto r = flood->Get("/api/v1/notices");
    ASSERT_TRUE(r);
    if (r->status == 429) {
      ++refused;
      retry_after = r->get_header_value("Retry-After");
    }
  }
  EXPECT_EQ(refused, 2);
  EXPECT_FALSE(retry_after.empty());
  auto other = WebClient("127.0.0.3");
  auto ok = other->Get("/api/v1/notices");
  ASSERT_TRUE(ok) << httplib::to_string(ok.error());
  EXPECT_EQ(ok->status, 200) << ok->body;
}

}  // namespace
}  // namespace gorank::web
