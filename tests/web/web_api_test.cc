// The /api/v1/ JSON twins of the portal's pages against a real in-process
// rankd (issue #21 item 6): every HTML page with data has a twin that answers
// JSON, and the verify twin of a revoked certificate carries the revocation
// date the HTML page shows.
#include <string>

#include "google/protobuf/util/json_util.h"
#include "gorank/v1/audit.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "nlohmann/json.hpp"
#include "services/web/html.h"
#include "tests/web/web_fixture.h"

namespace gorank::web {
namespace {

using google::protobuf::util::JsonStringToMessage;

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

const std::string kHolder = "%E5%BC%A0%E4%B8%89";  // 张三, URL-encoded

class WebApiTest : public WebFixture {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(StartServer()); }

  v1::VerifyCertificateResponse GrpcVerify() {
    v1::VerifyCertificateRequest req;
    req.set_number(cert_.number());
    req.set_holder_name("张三");
    v1::VerifyCertificateResponse resp;
    const grpc::Status s =
        certs_->VerifyCertificate(Context("").get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp;
  }

  // A city Swiss of 3 rounds with nobody entered; its id.
  int64_t AnEvent() {
    auto events = v1::TournamentService::NewStub(channel_);
    v1::CreateEventRequest create;
    v1::Event* e = create.mutable_event();
    e->set_name("API Swiss 2025");
    e->mutable_start()->set_year(2025);
    e->mutable_start()->set_month(11);
    e->mutable_start()->set_day(1);
    *e->mutable_end() = e->start();
    e->set_organiser_prefix("000");
    e->set_level(v1::EVENT_LEVEL_CITY);
    e->set_competition("club_event");
    e->set_sub_event(v1::SUB_EVENT_OPEN_INDIVIDUAL);
    e->set_highest_group(true);
    e->mutable_format()->set_kind(v1::FORMAT_KIND_SWISS);
    e->mutable_format()->set_rounds(3);
    v1::CreateEventResponse created;
    const grpc::Status s =
        events->CreateEvent(Context(admin_).get(), create, &created);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return created.event().id();
  }
};

TEST_F(WebApiTest, VerifyOfARevokedCertificateCarriesTheRevocationDate) {
  // Before the revocation: the plain gRPC answer, no revocation fields.
  auto r = Get("/api/v1/verify?number=" + cert_.number() + "&name=" + kHolder);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_FALSE(Has(r->body, "revoked")) << r->body;

  v1::RevokeCertificateRequest revoke;
  revoke.set_number(cert_.number());
  revoke.set_reason("result annulled");
  v1::RevokeCertificateResponse revoked;
  grpc::Status s =
      certs_->RevokeCertificate(Context(admin_).get(), revoke, &revoked);
  ASSERT_TRUE(s.ok()) << s.error_message();

  // The date the signed revocation list gives.
  auto audit = v1::AuditService::NewStub(channel_);
  v1::GetRevocationListResponse list;
  s = audit->GetRevocationList(Context("").get(),
                               v1::GetRevocationListRequest(), &list);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(list.revoked_size(), 1);
  ASSERT_EQ(list.revoked(0).number(), cert_.number());
  const int64_t at = list.revoked(0).revoked_unix();
  ASSERT_GT(at, 0);
  const std::string date = ShanghaiDay(at);

  r = Get("/api/v1/verify?number=" + cert_.number() + "&name=" + kHolder);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"),
            "application/json; charset=utf-8");
  nlohmann::json j = nlohmann::json::parse(r->body, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r->body;
  EXPECT_EQ(j["outcome"], "VERIFY_OUTCOME_REVOKED") << r->body;
  EXPECT_EQ(j["revoked_unix"], at) << r->body;
  EXPECT_EQ(j["revoked_date"], date) << r->body;
  // Without the two added fields it is the gRPC answer, field for field.
  j.erase("revoked_unix");
  j.erase("revoked_date");
  v1::VerifyCertificateResponse from_web;
  ASSERT_TRUE(JsonStringToMessage(j.dump(), &from_web).ok()) << r->body;
  EXPECT_EQ(from_web.SerializeAsString(), GrpcVerify().SerializeAsString());

  // The HTML page says the same date.
  r = Get("/verify?lang=en&number=" + cert_.number() + "&name=" + kHolder);
  ASSERT_TRUE(r);
  EXPECT_TRUE(Has(r->body, "<span id=\"revoked-date\">" + date + "</span>"))
      << r->body;

  // A wrong name learns nothing about the revocation.
  r = Get("/api/v1/verify?number=" + cert_.number() +
          "&name=%E5%BC%A0%E5%9B%9B");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "{\"outcome\":\"VERIFY_OUTCOME_NOT_VALID\"}");
}

TEST_F(WebApiTest, EveryPageWithDataHasAJsonTwin) {
  const std::string event = std::to_string(AnEvent());
  const std::string player = std::to_string(cert_.player_id());
  // Each page's path and query, as the HTML page takes them.
  const std::string pages[] = {
      "/verify?number=" + cert_.number() + "&name=" + kHolder,
      "/lookup?name=" + kHolder,
      "/notices",
      "/pairing?event=" + event,
      "/events",
      "/events/" + event,
      "/players/" + player,
      "/search?q=" + kHolder,
      "/ratings",
  };
  for (const std::string& page : pages) {
    auto html = Get(page);
    ASSERT_TRUE(html) << page;
    EXPECT_EQ(html->status, 200) << page << ": " << html->body;
    EXPECT_EQ(html->get_header_value("Content-Type"),
              "text/html; charset=utf-8")
        << page;
    auto json = Get("/api/v1" + page);
    ASSERT_TRUE(json) << page;
    EXPECT_EQ(json->status, 200) << page << ": " << json->body;
    EXPECT_EQ(json->get_header_value("Content-Type"),
              "application/json; charset=utf-8")
        << page;
    const auto parsed = nlohmann::json::parse(json->body, nullptr, false);
    EXPECT_TRUE(parsed.is_object()) << page << ": " << json->body;
  }
}

}  // namespace
}  // namespace gorank::web
