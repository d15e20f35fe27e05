// CertificateService through a real gRPC channel to an in-process rankd:
// Verify's two NOT_VALID answers are byte-identical, public answers carry
// no ID numbers or birth dates, idempotent retries, notices and export.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "tests/certificates/integration/grpc_fixture.h"

namespace gorank::certificates {
namespace {

constexpr char kResidentId[] = "11010519491231002X";  // born 1949-12-31

class CertificateServiceTest : public GrpcFixture {
 protected:
  void SetUp() override {
    holder_ = MustRegister("张三", "000", "1k", kResidentId);
    ASSERT_TRUE(
        Issue(admin_, IssueRequest(holder_.id(), "1d", "000"), &cert_).ok());
    ASSERT_EQ(cert_.number(), "000250001");
  }

  grpc::Status Verify(const std::string& number, const std::string& name,
                      v1::VerifyCertificateResponse* resp,
                      std::string* trailers) {
    v1::VerifyCertificateRequest req;
    req.set_number(number);
    req.set_holder_name(name);
    auto ctx = Context("");
    const grpc::Status s = certs_->VerifyCertificate(ctx.get(), req, resp);
    for (const auto& [key, value] : ctx->GetServerTrailingMetadata()) {
      trailers->append(key.data(), key.size())
          .append("=")
          .append(value.data(), value.size());
    }
    return s;
  }

  v1::Player holder_;
  v1::Certificate cert_;
};

TEST_F(CertificateServiceTest, UnknownNumberAndWrongNameAreByteIdentical) {
  v1::VerifyCertificateResponse unknown, wrong_name, right;
  std::string unknown_trailers, wrong_trailers, right_trailers;
  const grpc::Status s1 =
      Verify("000259999", "张三", &unknown, &unknown_trailers);
  const grpc::Status s2 =
      Verify(cert_.number(), "张四", &wrong_name, &wrong_trailers);
  ASSERT_TRUE(s1.ok()) << s1.error_message();
  ASSERT_TRUE(s2.ok()) << s2.error_message();
  EXPECT_EQ(s1.error_code(), s2.error_code());
  EXPECT_EQ(s1.error_message(), s2.error_message());
  EXPECT_EQ(s1.error_details(), s2.error_details());
  EXPECT_EQ(unknown_trailers, wrong_trailers);
  EXPECT_EQ(unknown.outcome(), v1::VERIFY_OUTCOME_NOT_VALID);
  EXPECT_EQ(unknown.SerializeAsString(), wrong_name.SerializeAsString());
  v1::VerifyCertificateResponse only_outcome;
  only_outcome.set_outcome(v1::VERIFY_OUTCOME_NOT_VALID);
  EXPECT_EQ(unknown.SerializeAsString(), only_outcome.SerializeAsString());

  ASSERT_TRUE(Verify(cert_.number(), "张三", &right, &right_trailers).ok());
  EXPECT_EQ(right.outcome(), v1::VERIFY_OUTCOME_VALID);
  EXPECT_EQ(right.masked_holder_name(), "张*");
  EXPECT_EQ(right.grade().notation(), "1d");

  v1::VerifyCertificateResponse malformed;
  std::string ignored;
  EXPECT_EQ(Verify("12345", "张三", &malformed, &ignored).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

// Every field name reachable from `d`.
void CollectFieldNames(const google::protobuf::Descriptor* d,
                       std::set<std::string>* names,
                       std::set<const google::protobuf::Descriptor*>* seen) {
  if (!seen->insert(d).second) return;
  for (int i = 0; i < d->field_count(); ++i) {
    names->insert(d->field(i)->name());
    if (d->field(i)->message_type())
      CollectFieldNames(d->field(i)->message_type(), names, seen);
  }
}

TEST_F(CertificateServiceTest, LookupRankShowsNoIdNumbersOrBirthDates) {
  std::set<std::string> names;
  std::set<const google::protobuf::Descriptor*> seen;
  CollectFieldNames(v1::LookupRankResponse::descriptor(), &names, &seen);
  EXPECT_EQ(names.count("resident_id"), 0u);
  EXPECT_EQ(names.count("birth_date"), 0u);

  v1::LookupRankRequest req;
  req.set_name("张三");
  v1::LookupRankResponse resp;
  const grpc::Status s = certs_->LookupRank(Context("").get(), req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(resp.players_size(), 1);
  EXPECT_EQ(resp.players(0).name(), "张三");
  EXPECT_EQ(resp.players(0).rank().notation(), "1d");
  ASSERT_EQ(resp.players(0).certificates_size(), 1);
  // Public-data policy: the public sees prefix and year only.
  EXPECT_EQ(resp.players(0).certificates(0).number(), "00025****");
  const std::string bytes = resp.SerializeAsString();
  EXPECT_EQ(bytes.find(kResidentId), std::string::npos);
  EXPECT_EQ(bytes.find("110105"), std::string::npos);
  EXPECT_EQ(resp.DebugString().find("1949"), std::string::npos)
      << resp.DebugString();
}

TEST_F(CertificateServiceTest, ARetriedRequestIdGivesTheSameCertificate) {
  v1::IssueCertificateRequest req = IssueRequest(holder_.id(), "2d", "000");
  req.set_request_id("import-2025-12/row-1");
  v1::Certificate first, again, other;
  ASSERT_TRUE(Issue(admin_, req, &first).ok());
  ASSERT_TRUE(Issue(admin_, req, &again).ok());
  EXPECT_EQ(first.SerializeAsString(), again.SerializeAsString());
  EXPECT_EQ(first.number(), "000250002");
  req.mutable_grade()->set_notation("3d");
  const grpc::Status s = Issue(admin_, req, &other);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS)
      << s.error_message();
  ASSERT_TRUE(
      Issue(admin_, IssueRequest(holder_.id(), "2d", "000"), &other).ok());
  EXPECT_EQ(other.number(), "000250003");
}

TEST_F(CertificateServiceTest, NoticesAreListedForThePublicAndEndWithTheClock) {
  const v1::Player strong = MustRegister("李四", "000", "3d");
  v1::Certificate four;
  ASSERT_TRUE(
      Issue(admin_, IssueRequest(strong.id(), "4d", "000"), &four).ok());
  EXPECT_EQ(four.state(), v1::CERTIFICATE_STATE_UNDER_NOTICE);
  v1::ListNoticesResponse notices;
  ASSERT_TRUE(certs_->ListNotices(Context("").get(), {}, &notices).ok());
  ASSERT_EQ(notices.notices_size(), 1);
  EXPECT_EQ(notices.notices(0).certificate().number(), four.number());
  EXPECT_EQ(notices.notices(0).holder_name(), "李四");

  clock_.Advance(7 * 86400);
  v1::GetPlayerRequest get;
  get.set_player_id(strong.id());
  v1::GetPlayerResponse player;
  ASSERT_TRUE(players_->GetPlayer(Context("").get(), get, &player).ok());
  EXPECT_EQ(player.player().rank().notation(), "4d");
  v1::GetRankHistoryRequest hist;
  hist.set_player_id(strong.id());
  v1::GetRankHistoryResponse history;
  ASSERT_TRUE(players_->GetRankHistory(Context("").get(), hist, &history).ok());
  EXPECT_EQ(history.entries_size(), 2);
  notices.Clear();
  ASSERT_TRUE(certs_->ListNotices(Context("").get(), {}, &notices).ok());
  EXPECT_EQ(notices.notices_size(), 0);
}

// ListNotices and ListAppraisals page; every row comes exactly once, in
// order, and a token of one list is refused by the other.
TEST_F(CertificateServiceTest, NoticesAndAppraisalsArePagedEveryRowOnce) {
  std::set<std::string> issued;
  for (const char* name : {"赵一", "钱二", "孙三", "李五", "周六"}) {
    const v1::Player p = MustRegister(name, "000", "3d");
    v1::Certificate c;
    ASSERT_TRUE(Issue(admin_, IssueRequest(p.id(), "4d", "000"), &c).ok());
    issued.insert(c.number());
  }
  v1::ListNoticesRequest nr;
  nr.set_page_size(2);
  std::vector<std::string> numbers;
  int pages = 0;
  std::string notice_token;
  do {
    v1::ListNoticesResponse page;
    grpc::Status s = certs_->ListNotices(Context("").get(), nr, &page);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_LE(page.notices_size(), 2);
    for (const auto& n : page.notices())
      numbers.push_back(n.certificate().number());
    if (pages++ == 0) notice_token = page.next_page_token();
    nr.set_page_token(page.next_page_token());
  } while (!nr.page_token().empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_TRUE(std::is_sorted(numbers.begin(), numbers.end()));
  EXPECT_EQ(std::set<std::string>(numbers.begin(), numbers.end()), issued);
  EXPECT_EQ(numbers.size(), issued.size());

  std::set<int64_t> recommended;
  for (const char* name : {"吴七", "郑八", "王九"}) {
    const v1::Player p = MustRegister(name, "000", "1d");
    v1::RecommendAppraisalRequest req;
    req.set_player_id(p.id());
    req.mutable_grade()->set_notation("2d");
    v1::RecommendAppraisalResponse resp;
    grpc::Status s =
        certs_->RecommendAppraisal(Context(admin_).get(), req, &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
    recommended.insert(resp.appraisal().id());
  }
  v1::ListAppraisalsRequest ar;
  ar.set_page_size(1);
  std::vector<int64_t> ids;
  pages = 0;
  do {
    v1::ListAppraisalsResponse page;
    grpc::Status s = certs_->ListAppraisals(Context(admin_).get(), ar, &page);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_LE(page.appraisals_size(), 1);
    for (const auto& a : page.appraisals()) ids.push_back(a.id());
    ++pages;
    ar.set_page_token(page.next_page_token());
  } while (!ar.page_token().empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(std::set<int64_t>(ids.begin(), ids.end()), recommended);
  EXPECT_EQ(ids.size(), recommended.size());

  ar.set_page_token(notice_token);
  v1::ListAppraisalsResponse refused;
  grpc::Status s = certs_->ListAppraisals(Context(admin_).get(), ar, &refused);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("page_token"), std::string::npos)
      << s.error_message();
}

TEST_F(CertificateServiceTest, ExportHoldersShowsIdNumbersOnlyToThoseAllowed) {
  const std::string auditor = MustCreateToken(v1::ROLE_AUDITOR, "");
  v1::ExportHoldersRequest req;
  req.set_agency_prefix("000");
  req.set_year(2025);
  v1::ExportHoldersResponse national, audited;
  ASSERT_TRUE(
      certs_->ExportHolders(Context(admin_).get(), req, &national).ok());
  ASSERT_TRUE(
      certs_->ExportHolders(Context(auditor).get(), req, &audited).ok());
  ASSERT_EQ(national.records_size(), 1);
  EXPECT_EQ(national.records(0).resident_id(), kResidentId);
  EXPECT_EQ(national.records(0).birth_date().year(), 1949);
  ASSERT_EQ(audited.records_size(), 1);
  EXPECT_EQ(audited.records(0).resident_id(), "");
  EXPECT_EQ(audited.records(0).certificate().number(), cert_.number());
  v1::ExportHoldersResponse none;
  EXPECT_EQ(certs_->ExportHolders(Context("").get(), req, &none).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
}

}  // namespace
}  // namespace gorank::certificates
