// The public-data policy (README "Public data policy") through a real gRPC
// channel to an in-process rankd: one answer for "unknown" and "exists but
// not yours", certificate numbers masked outside verification and notices,
// whole-name lookups only for the public, request ids scoped by agency,
// objections listed for the national admin and the holder's agency, awards
// that name their basis and appear in the annual report.
#include <string>

#include "tests/certificates/integration/grpc_fixture.h"

namespace gorank::certificates {
namespace {

// `message` with `number` replaced by "N", to compare two answers that may
// differ only in the number the caller sent.
std::string WithoutNumber(const std::string& message,
                          const std::string& number) {
  std::string m = message;
  const size_t at = m.find(number);
  return at == std::string::npos ? m : m.replace(at, number.size(), "N");
}

class PublicDataPolicyTest : public GrpcFixture {
 protected:
  void SetUp() override {
    op110_ = MustCreateToken(v1::ROLE_AGENCY_OPERATOR, "110");
    op310_ = MustCreateToken(v1::ROLE_AGENCY_OPERATOR, "310");
    MustGiveStock("110", 2025, 100);
    MustGiveStock("310", 2025, 100);
    holder_ = MustRegister("张三", "110", "1k");
    ASSERT_TRUE(
        Issue(op110_, IssueRequest(holder_.id(), "1d", "110"), &cert_).ok());
    ASSERT_EQ(cert_.number(), "110250001");
  }

  grpc::Status Lodge(const std::string& number,
                     v1::LodgeObjectionResponse* out) {
    v1::LodgeObjectionRequest req;
    req.set_number(number);
    req.set_text("the result was never played");
    req.set_contact("tel 123");
    return certs_->LodgeObjection(Context("").get(), req, out);
  }
  grpc::Status GetCert(const std::string& token, const std::string& number) {
    v1::GetCertificateRequest req;
    req.set_number(number);
    v1::GetCertificateResponse resp;
    return certs_->GetCertificate(Context(token).get(), req, &resp);
  }
  v1::ListObjectionsResponse Objections(
      const std::string& token, grpc::Status* status,
      v1::ObjectionState state = v1::OBJECTION_STATE_UNSPECIFIED,
      const std::string& page_token = "", int page_size = 0) {
    v1::ListObjectionsRequest req;
    req.set_state(state);
    req.set_page_token(page_token);
    req.set_page_size(page_size);
    v1::ListObjectionsResponse resp;
    *status = certs_->ListObjections(Context(token).get(), req, &resp);
    return resp;
  }

  std::string op110_, op310_;
  v1::Player holder_;
  v1::Certificate cert_;
};

TEST_F(PublicDataPolicyTest,
       ObjectionsGiveOneAnswerForUnknownAndNotUnderNotice) {
  v1::LodgeObjectionResponse ignored;
  const grpc::Status unknown = Lodge("110259999", &ignored);
  const grpc::Status not_posted =
      Lodge(cert_.number(), &ignored);  // 1d: no notice
  EXPECT_EQ(unknown.error_code(), grpc::StatusCode::NOT_FOUND)
      << unknown.error_message();
  EXPECT_EQ(not_posted.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(WithoutNumber(unknown.error_message(), "110259999"),
            WithoutNumber(not_posted.error_message(), cert_.number()));
}

TEST_F(PublicDataPolicyTest, AnotherAgencySeesTheSameAsForAnUnknownNumber) {
  const grpc::Status existing = GetCert(op310_, cert_.number());
  const grpc::Status unknown = GetCert(op310_, "110259999");
  EXPECT_EQ(existing.error_code(), grpc::StatusCode::NOT_FOUND)
      << existing.error_message();
  EXPECT_EQ(unknown.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(WithoutNumber(existing.error_message(), cert_.number()),
            WithoutNumber(unknown.error_message(), "110259999"));
  EXPECT_TRUE(GetCert(op110_, cert_.number()).ok());
  // Revoking another prefix is refused from the number alone, existing or not.
  for (const std::string& n : {cert_.number(), std::string("110259999")}) {
    v1::RevokeCertificateRequest rev;
    rev.set_number(n);
    rev.set_reason("x");
    v1::RevokeCertificateResponse resp;
    EXPECT_EQ(certs_->RevokeCertificate(Context(op310_).get(), rev, &resp)
                  .error_code(),
              grpc::StatusCode::PERMISSION_DENIED)
        << n;
  }
}

TEST_F(PublicDataPolicyTest,
       ThePublicSeesNumbersMaskedOutsideVerifyAndNotices) {
  v1::LookupRankRequest lookup;
  lookup.set_name("张三");
  v1::LookupRankResponse pub, staff;
  ASSERT_TRUE(certs_->LookupRank(Context("").get(), lookup, &pub).ok());
  ASSERT_TRUE(certs_->LookupRank(Context(op310_).get(), lookup, &staff).ok());
  ASSERT_EQ(pub.players_size(), 1);
  ASSERT_EQ(pub.players(0).certificates_size(), 1);
  EXPECT_EQ(pub.players(0).certificates(0).number(), "11025****");
  EXPECT_EQ(pub.SerializeAsString().find(cert_.number()), std::string::npos);
  EXPECT_EQ(staff.players(0).certificates(0).number(), cert_.number());

  v1::GetRankHistoryRequest hist;
  hist.set_player_id(holder_.id());
  v1::GetRankHistoryResponse pub_history, staff_history;
  ASSERT_TRUE(
      players_->GetRankHistory(Context("").get(), hist, &pub_history).ok());
  ASSERT_TRUE(
      players_->GetRankHistory(Context(op310_).get(), hist, &staff_history)
          .ok());
  ASSERT_EQ(pub_history.entries_size(), 2);
  EXPECT_EQ(pub_history.entries(1).basis(), "certificate 11025****");
  EXPECT_EQ(pub_history.entries(1).actor(), "agency:110");
  EXPECT_EQ(pub_history.SerializeAsString().find(cert_.number()),
            std::string::npos);
  EXPECT_EQ(pub_history.SerializeAsString().find("token:"), std::string::npos);
  EXPECT_EQ(staff_history.entries(1).basis(), "certificate " + cert_.number());

  // The number and the holder's name together still verify.
  v1::VerifyCertificateRequest verify;
  verify.set_number(cert_.number());
  verify.set_holder_name("张三");
  v1::VerifyCertificateResponse verified;
  ASSERT_TRUE(
      certs_->VerifyCertificate(Context("").get(), verify, &verified).ok());
  EXPECT_EQ(verified.outcome(), v1::VERIFY_OUTCOME_VALID);
}

TEST_F(PublicDataPolicyTest, ThePublicLooksUpWholeNamesAndCannotPage) {
  MustRegister("张三丰", "110", "2k");
  v1::SearchPlayersRequest req;
  req.set_name_prefix("张");
  v1::SearchPlayersResponse resp;
  ASSERT_TRUE(players_->SearchPlayers(Context("").get(), req, &resp).ok());
  EXPECT_EQ(resp.players_size(), 0) << "a prefix is not a name";
  req.set_name_prefix("张三");
  ASSERT_TRUE(players_->SearchPlayers(Context("").get(), req, &resp).ok());
  ASSERT_EQ(resp.players_size(), 1);
  EXPECT_EQ(resp.players(0).id(), holder_.id());
  EXPECT_TRUE(resp.next_page_token().empty());
  v1::SearchPlayersRequest all;
  grpc::Status s = players_->SearchPlayers(Context("").get(), all, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << s.error_message();
  req.set_page_token("1");
  s = players_->SearchPlayers(Context("").get(), req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << s.error_message();
  // With a token the registry is listed as before.
  all.set_name_prefix("张");
  ASSERT_TRUE(players_->SearchPlayers(Context(op310_).get(), all, &resp).ok());
  EXPECT_EQ(resp.players_size(), 2);
}

TEST_F(PublicDataPolicyTest, RequestIdsAreScopedByAgency) {
  const v1::Player shanghai = MustRegister("李四", "310", "5k");
  // Operator 310 takes the id 110 will use (and the one a promotion
  // approval would use): neither is blocked.
  for (const char* id : {"batch-1", "promotion-1"}) {
    SCOPED_TRACE(id);
    v1::IssueCertificateRequest theirs =
        IssueRequest(shanghai.id(), "2k", "310");
    theirs.set_request_id(id);
    v1::Certificate by310, by110, again310, again110;
    ASSERT_TRUE(Issue(op310_, theirs, &by310).ok());
    const v1::Player p = MustRegister(std::string("王五") + id, "110", "5k");
    v1::IssueCertificateRequest ours = IssueRequest(p.id(), "4k", "110");
    ours.set_request_id(id);
    const grpc::Status s = Issue(op110_, ours, &by110);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_NE(by110.number(), by310.number());
    EXPECT_EQ(by110.request_id(), id);
    // Each agency's retry still finds its own certificate.
    ASSERT_TRUE(Issue(op310_, theirs, &again310).ok());
    ASSERT_TRUE(Issue(op110_, ours, &again110).ok());
    EXPECT_EQ(again310.number(), by310.number());
    EXPECT_EQ(again110.number(), by110.number());
    // A different request under an id of one's own is still ALREADY_EXISTS.
    ours.mutable_grade()->set_notation("3k");
    EXPECT_EQ(Issue(op110_, ours, &again110).error_code(),
              grpc::StatusCode::ALREADY_EXISTS);
  }
}

TEST_F(PublicDataPolicyTest,
       ObjectionsAreListedForTheNationalAdminAndTheHoldersAgency) {
  // A 4d of a 110 player, issued by the national body, under notice.
  const v1::Player strong = MustRegister("赵六", "110", "3d");
  v1::Certificate four;
  ASSERT_TRUE(
      Issue(admin_, IssueRequest(strong.id(), "4d", "000"), &four).ok());
  v1::LodgeObjectionResponse first, second;
  ASSERT_TRUE(Lodge(four.number(), &first).ok());
  ASSERT_TRUE(Lodge(four.number(), &second).ok());

  grpc::Status s;
  v1::ListObjectionsResponse all = Objections(admin_, &s);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(all.objections_size(), 2);
  const v1::Objection& o = all.objections(0);
  EXPECT_EQ(o.id(), first.objection().id());
  EXPECT_EQ(o.number(), four.number());
  EXPECT_EQ(o.holder_name(), "赵六");
  EXPECT_EQ(o.holder_agency_prefix(), "110");
  EXPECT_EQ(o.grade().notation(), "4d");
  EXPECT_EQ(o.text(), "the result was never played");
  EXPECT_EQ(o.contact(), "tel 123");
  EXPECT_EQ(o.state(), v1::OBJECTION_STATE_OPEN);
  EXPECT_GT(o.lodged_unix(), 0);

  // The holder's agency sees them (without the objector's contact); another
  // agency sees none; the public needs a token.
  v1::ListObjectionsResponse own = Objections(op110_, &s);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(own.objections_size(), 2);
  EXPECT_TRUE(own.objections(0).contact().empty());
  EXPECT_EQ(Objections(op310_, &s).objections_size(), 0);
  EXPECT_TRUE(s.ok());
  Objections("", &s);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);

  // Paging and the state filter, after a decision.
  v1::ListObjectionsResponse page =
      Objections(admin_, &s, v1::OBJECTION_STATE_UNSPECIFIED, "", 1);
  ASSERT_EQ(page.objections_size(), 1);
  EXPECT_EQ(page.objections(0).id(), first.objection().id());
  // Opaque (services/common/paging.h): it only has to lead to the next page.
  EXPECT_FALSE(page.next_page_token().empty());
  page = Objections(admin_, &s, v1::OBJECTION_STATE_UNSPECIFIED,
                    page.next_page_token(), 1);
  ASSERT_EQ(page.objections_size(), 1);
  EXPECT_EQ(page.objections(0).id(), second.objection().id());
  EXPECT_TRUE(page.next_page_token().empty());
  v1::DecideObjectionRequest decide;
  decide.set_objection_id(page.objections(0).id());
  decide.set_note("the result is on record");
  v1::DecideObjectionResponse decided;
  ASSERT_TRUE(
      certs_->DecideObjection(Context(admin_).get(), decide, &decided).ok());
  v1::ListObjectionsResponse dismissed =
      Objections(op110_, &s, v1::OBJECTION_STATE_DISMISSED);
  ASSERT_EQ(dismissed.objections_size(), 1);
  EXPECT_EQ(dismissed.objections(0).decision_note(), "the result is on record");
  EXPECT_GT(dismissed.objections(0).decided_unix(), 0);
  EXPECT_EQ(Objections(op110_, &s, v1::OBJECTION_STATE_OPEN).objections_size(),
            1);

  // The public notice list shows the basis and the holder's agency, but not
  // who issued it with which token.
  v1::ListNoticesResponse notices;
  ASSERT_TRUE(certs_->ListNotices(Context("").get(), {}, &notices).ok());
  ASSERT_EQ(notices.notices_size(), 1);
  EXPECT_EQ(notices.notices(0).holder_agency_prefix(), "110");
  EXPECT_FALSE(notices.notices(0).holder_agency_name().empty());
  EXPECT_EQ(notices.notices(0).certificate().agency_prefix(), "000");
  EXPECT_EQ(notices.notices(0).certificate().basis(),
            v1::CERTIFICATE_BASIS_TOURNAMENT);
  EXPECT_FALSE(notices.notices(0).certificate().basis_reference().empty());
  EXPECT_TRUE(notices.notices(0).certificate().issued_by().empty());
  EXPECT_EQ(notices.notices(0).open_objections(), 1);
}

TEST_F(PublicDataPolicyTest, AnAwardNamesItsBasisAndIsInTheAnnualReport) {
  v1::ChangeRankRequest award;
  award.set_player_id(holder_.id());
  award.mutable_new_rank()->set_notation("3d");
  award.set_reason(v1::RANK_CHANGE_REASON_TOURNAMENT_AWARD);
  award.set_basis("2025 provincial final, 1st");
  v1::ChangeRankResponse changed;
  const std::string before = [&] {
    v1::GetPlayerRequest g;
    g.set_player_id(holder_.id());
    v1::GetPlayerResponse p;
    EXPECT_TRUE(players_->GetPlayer(Context(admin_).get(), g, &p).ok());
    return p.player().rank().notation();
  }();
  EXPECT_EQ(before, "1d");
  grpc::Status s = players_->ChangeRank(Context(op110_).get(), award, &changed);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << s.error_message();
  award.set_basis_event_id(4242);
  s = players_->ChangeRank(Context(op110_).get(), award, &changed);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << s.error_message();
  award.set_basis_event_id(0);
  award.set_basis_certificate("110259999");
  s = players_->ChangeRank(Context(op110_).get(), award, &changed);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << s.error_message();
  const v1::Player other = MustRegister("孙七", "110", "1k");
  award.set_player_id(other.id());
  award.set_basis_certificate(cert_.number());  // 张三's certificate
  s = players_->ChangeRank(Context(op110_).get(), award, &changed);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION)
      << s.error_message();

  award.set_player_id(holder_.id());
  s = players_->ChangeRank(Context(op110_).get(), award, &changed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(changed.player().rank().notation(), "3d");
  EXPECT_EQ(changed.entry().basis(), "certificate " + cert_.number() +
                                         " (1d): 2025 provincial final, 1st");

  v1::GetAnnualReportRequest report_req;
  report_req.set_agency_prefix("110");
  report_req.set_year(2025);
  v1::GetAnnualReportResponse report;
  s = audit_->GetAnnualReport(Context(op110_).get(), report_req, &report);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(report.report().awards_size(), 1);
  const v1::ReportNote& note = report.report().awards(0);
  EXPECT_EQ(note.grade(), "3d");
  EXPECT_NE(note.detail().find("张三"), std::string::npos) << note.detail();
  EXPECT_NE(note.detail().find("1d -> 3d"), std::string::npos) << note.detail();
  EXPECT_NE(note.detail().find("2025 provincial final"), std::string::npos)
      << note.detail();
  report_req.set_agency_prefix("310");
  s = audit_->GetAnnualReport(Context(op310_).get(), report_req, &report);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(report.report().awards_size(), 0);
}

}  // namespace
}  // namespace gorank::certificates
