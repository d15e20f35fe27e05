// Certification::Issue: numbering (first of the year, year rollover, the
// 9999 limit, prefixes independent), authority through the whole call,
// holder records, corrections, stock and idempotent retries.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "tests/certificates/certification_fixture.h"
#include "tests/certificates/counting_repositories.h"

namespace gorank::certificates {
namespace {

using ::testing::ElementsAre;

class IssueTest : public CertificationFixture {};

// Runs `before_write` when the office hands its plan to the repository:
// after every check the office makes, before the write transaction.
class BeforeWriteRepository : public CountingCertificateRepository {
 public:
  BeforeWriteRepository(CertificateRepository* inner,
                        std::function<void()> before_write)
      : CountingCertificateRepository(inner, &counter_),
        before_write_(std::move(before_write)) {}
  absl::StatusOr<Certificate> IssueCertificate(const IssuePlan& plan) override {
    before_write_();
    return CountingCertificateRepository::IssueCertificate(plan);
  }

 private:
  CallCounter counter_;
  std::function<void()> before_write_;
};

TEST_F(IssueTest, FirstOfTheYearIsOneAndPrefixesCountIndependently) {
  GiveStock("110", 2025, 10);
  GiveStock("120", 2025, 10);
  const auto p000 = MustRegister("国手", "000", R("1k"));
  const auto p110 = MustRegister("张三", "110", R("2k"));
  const auto p120 = MustRegister("李四", "120", R("2k"));
  EXPECT_EQ(MustIssue(national_, Request(p000, "1k")).number.ToString(),
            "000250001");
  EXPECT_EQ(MustIssue(op110_, Request(p110, "2k")).number.ToString(),
            "110250001");
  EXPECT_EQ(MustIssue(national_, Request(p000, "1k")).number.ToString(),
            "000250002");
  EXPECT_EQ(MustIssue(op120_, Request(p120, "2k")).number.ToString(),
            "120250001");
  EXPECT_EQ(MustIssue(op110_, Request(p110, "2k")).number.ToString(),
            "110250002");
  EXPECT_EQ(LastSerial("000", 2025), 2);
  EXPECT_EQ(LastSerial("110", 2025), 2);
  EXPECT_EQ(LastSerial("120", 2025), 1);
  EXPECT_THAT(Serials("110", 2025), ElementsAre(1, 2));
}

TEST_F(IssueTest, ANewYearStartsAtOneAgainAtShanghaiMidnight) {
  GiveStock("110", 2025, 10);
  GiveStock("110", 2026, 10);
  const auto p = MustRegister("张三", "110", R("5k"));
  clock_.Set(ShanghaiMidnight(Date{2026, 1, 1}) - 1);
  const Certificate last_2025 = MustIssue(op110_, Request(p, "5k"));
  EXPECT_EQ(last_2025.number.ToString(), "110250001");
  EXPECT_EQ(last_2025.issue_date, (Date{2025, 12, 31}));
  EXPECT_EQ(MustIssue(op110_, Request(p, "5k")).number.ToString(), "110250002");
  clock_.Set(ShanghaiMidnight(Date{2026, 1, 1}));
  const Certificate first_2026 = MustIssue(op110_, Request(p, "5k"));
  EXPECT_EQ(first_2026.number.ToString(), "110260001");
  EXPECT_EQ(first_2026.year, 2026);
  EXPECT_EQ(LastSerial("110", 2025), 2);
  EXPECT_EQ(LastSerial("110", 2026), 1);
}

TEST_F(IssueTest, TheTenThousandthOfAPrefixYearIsResourceExhausted) {
  const auto p = MustRegister("张三", "000", R("1k"));
  ExecSql(
      "INSERT INTO certificate_serials(prefix, year, last_serial) "
      "VALUES('000', 2025, 9998)");
  EXPECT_EQ(MustIssue(national_, Request(p, "1k")).number.ToString(),
            "000259999");
  auto refused = office_->Issue(national_, Request(p, "1k"));
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted)
      << refused.status();
  EXPECT_NE(refused.status().message().find("9999"), std::string::npos);
  EXPECT_EQ(LastSerial("000", 2025), 9999);
  EXPECT_THAT(Serials("000", 2025), ElementsAre(9999));
  // Other prefixes and the next year are not affected.
  GiveStock("110", 2025, 1);
  const auto q = MustRegister("李四", "110", R("1k"));
  EXPECT_EQ(MustIssue(op110_, Request(q, "1k")).number.ToString(), "110250001");
  clock_.SetDate(Date{2026, 1, 2});
  EXPECT_EQ(MustIssue(national_, Request(p, "1k")).number.ToString(),
            "000260001");
}

TEST_F(IssueTest, AuthorityIsCheckedOnTheWholeCallAndFailuresConsumeNoSerial) {
  GiveStock("110", 2025, 10);
  GiveStock("120", 2025, 10);
  const auto p110 = MustRegister("张三", "110", R("3d"));
  const auto p120 = MustRegister("李四", "120");
  using C = absl::StatusCode;
  struct Row {
    const auth::Caller* caller;
    IssueRequest request;
    C code;
  };
  const Row rows[] = {
      {&op110_, Request(p110, "4d"), C::kPermissionDenied},
      {&op110_, Request(p110, "7d", "000"), C::kPermissionDenied},
      {&op110_, Request(p110, "8d"), C::kPermissionDenied},
      {&op110_, Request(p110, "3d", "120"), C::kPermissionDenied},
      {&op110_, Request(p120, "1k"), C::kPermissionDenied},  // not its player
      {&op110_, Request(p110, "11k"), C::kInvalidArgument},
      {&national_, Request(p110, "4d", "110"), C::kPermissionDenied},
      {&auditor_, Request(p110, "3d", "110"), C::kPermissionDenied},
      {&public_, Request(p110, "3d", "110"), C::kPermissionDenied},
      {&national_, Request(p110, "3d", "999"), C::kNotFound},
  };
  for (const Row& row : rows) {
    auto c = office_->Issue(*row.caller, row.request);
    EXPECT_EQ(c.status().code(), row.code)
        << row.caller->Describe() << " " << row.request.grade->ToString()
        << " under '" << row.request.agency_prefix << "': " << c.status();
  }
  IssueRequest honorary_by_tournament = Request(p110, "8d", "000");
  honorary_by_tournament.basis = Basis::kTournament;
  EXPECT_EQ(office_->Issue(national_, honorary_by_tournament).status().code(),
            C::kInvalidArgument);
  EXPECT_EQ(LastSerial("110", 2025), 0);
  EXPECT_EQ(LastSerial("000", 2025), 0);
  EXPECT_EQ(MustIssue(op110_, Request(p110, "3d")).number.ToString(),
            "110250001");
  // The national body issues every grade under 000, 8d honorary included.
  const Certificate eight = MustIssue(national_, Request(p110, "8d", "000"));
  EXPECT_EQ(eight.number.ToString(), "000250001");
  EXPECT_EQ(eight.basis, Basis::kHonoraryAward);
  EXPECT_EQ(RankOf(p110.id), R("8d"));
}

TEST_F(IssueTest, ASuspendedAgencyIssuesNothing) {
  GiveStock("110", 2025, 10);
  const auto p = MustRegister("张三", "110");
  ASSERT_TRUE(registry_
                  ->SetAgencyStatus(national_, "110",
                                    registry::AgencyStatus::kSuspended,
                                    "annual review failed")
                  .ok());
  auto c = office_->Issue(op110_, Request(p, "1d"));
  EXPECT_EQ(c.status().code(), absl::StatusCode::kFailedPrecondition)
      << c.status();
  EXPECT_EQ(LastSerial("110", 2025), 0);
}

// The suspension lands between the office's checks and the write (a national
// admin suspending the agency while its operator issues): the write judges
// the agency as stored and issues nothing.
TEST_F(IssueTest, AnAgencySuspendedBeforeTheWriteIssuesNothing) {
  GiveStock("110", 2025, 10);
  const auto p = MustRegister("张三", "110", R("1k"));
  IssueRequest first = Request(p, "1d");
  first.request_id = "batch-1/row-1";
  const Certificate issued = MustIssue(op110_, first);
  bool suspend = true;
  BeforeWriteRepository racing(cert_repo_.get(), [&] {
    if (!suspend) return;
    suspend = false;
    ASSERT_TRUE(registry_
                    ->SetAgencyStatus(national_, "110",
                                      registry::AgencyStatus::kSuspended,
                                      "annual review failed")
                    .ok());
  });
  Certification office(&racing, registry_repo_.get(), &clock_);
  auto refused = office.Issue(op110_, Request(p, "2d"));
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition)
      << refused.status();
  EXPECT_NE(refused.status().message().find("suspended"), std::string::npos)
      << refused.status();
  EXPECT_EQ(LastSerial("110", 2025), 1);
  EXPECT_EQ(RankOf(p.id), R("1d"));
  EXPECT_EQ(History(p.id).size(), 2u);
  // A retry of what was issued before the suspension still gets it back,
  // and so does one the next day (its date defaulted to today both times).
  auto replay = office.Issue(op110_, first);
  ASSERT_TRUE(replay.ok()) << replay.status();
  EXPECT_EQ(replay->number, issued.number);
  clock_.SetDate(Date{2025, 6, 3});
  auto next_day = office.Issue(op110_, first);
  ASSERT_TRUE(next_day.ok()) << next_day.status();
  EXPECT_EQ(next_day->number, issued.number);
  EXPECT_EQ(next_day->issue_date, (Date{2025, 6, 2}));
  EXPECT_EQ(LastSerial("110", 2025), 1);
}

// The holder's rank is the one stored when the write runs: raised between
// the office's checks and the write, the issuance below it needs the
// correction flag, and nothing is written.
TEST_F(IssueTest, ARankRaisedBeforeTheWriteIsJudgedAsStored) {
  GiveStock("110", 2025, 10);
  const auto p = MustRegister("张三", "110", R("1k"));
  bool raise = true;
  BeforeWriteRepository racing(cert_repo_.get(), [&] {
    if (!raise) return;
    raise = false;
    MustIssue(op110_, Request(p, "3d"));  // another operator's issuance
  });
  Certification office(&racing, registry_repo_.get(), &clock_);
  auto refused = office.Issue(op110_, Request(p, "1d"));
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition)
      << refused.status();
  EXPECT_NE(refused.status().message().find("correction"), std::string::npos)
      << refused.status();
  EXPECT_EQ(RankOf(p.id), R("3d"));
  EXPECT_EQ(LastSerial("110", 2025), 1);
}

TEST_F(IssueTest, OneDanAndAboveNeedACompleteHolderRecord) {
  GiveStock("110", 2025, 10);
  const auto p = MustRegister("张三", "110", std::nullopt, /*complete=*/false);
  MustIssue(op110_, Request(p, "1k"));  // kyu: no record needed
  auto c = office_->Issue(op110_, Request(p, "1d"));
  EXPECT_EQ(c.status().code(), absl::StatusCode::kFailedPrecondition)
      << c.status();
  EXPECT_NE(c.status().message().find("gender"), std::string::npos)
      << c.status();
  EXPECT_NE(c.status().message().find("birth date"), std::string::npos)
      << c.status();
  EXPECT_EQ(RankOf(p.id), R("1k"));
  EXPECT_EQ(LastSerial("110", 2025), 1);
}

TEST_F(IssueTest, BelowTheCurrentRankNeedsTheCorrectionFlag) {
  GiveStock("110", 2025, 10);
  const auto p = MustRegister("张三", "110", R("2d"));
  auto refused = office_->Issue(op110_, Request(p, "1d"));
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("correction"), std::string::npos);
  IssueRequest r = Request(p, "1d");
  r.correction = true;
  EXPECT_EQ(office_->Issue(op110_, r).status().code(),
            absl::StatusCode::kInvalidArgument)
      << "a correction needs its reason";
  r.correction_reason = "the 2d was recorded in error";
  const Certificate c = MustIssue(op110_, r);
  EXPECT_EQ(c.correction_reason, "the 2d was recorded in error");
  EXPECT_EQ(RankOf(p.id), R("1d"));
  EXPECT_EQ(LastSerial("110", 2025), 1);
}

TEST_F(IssueTest, BelowFourDanTheRankChangesAtOnceWithAHistoryEntry) {
  GiveStock("110", 2025, 10);
  const auto p = MustRegister("张三", "110", R("1k"));
  const Certificate c = MustIssue(op110_, Request(p, "2d"));
  EXPECT_TRUE(c.rank_applied);
  EXPECT_EQ(c.rank_before, R("1k"));
  EXPECT_EQ(office_->StateOf(c), CertificateState::kEffective);
  EXPECT_EQ(RankOf(p.id), R("2d"));
  const auto history = History(p.id);
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[1].from_rank, R("1k"));
  EXPECT_EQ(history[1].to_rank, R("2d"));
  EXPECT_EQ(history[1].reason, registry::RankChangeReason::kCertificate);
  EXPECT_EQ(history[1].basis, "certificate 110250001");
}

TEST_F(IssueTest, AgenciesIssueOnlyWithinReleasedStock) {
  const auto p = MustRegister("张三", "110", R("5k"));
  auto none = office_->Issue(op110_, Request(p, "5k"));
  EXPECT_EQ(none.status().code(), absl::StatusCode::kFailedPrecondition)
      << none.status();
  ASSERT_TRUE(office_->OrderStock(national_, "110", 2025, 2).ok());
  auto unreleased = office_->Issue(op110_, Request(p, "5k"));
  EXPECT_EQ(unreleased.status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(office_->ReleaseStock(national_, "110", 2025).ok());
  MustIssue(op110_, Request(p, "5k"));
  MustIssue(op110_, Request(p, "5k"));
  auto beyond = office_->Issue(op110_, Request(p, "5k"));
  EXPECT_EQ(beyond.status().code(), absl::StatusCode::kFailedPrecondition)
      << beyond.status();
  EXPECT_NE(beyond.status().message().find("issued 2 certificates in 2025"),
            std::string::npos)
      << beyond.status();
  EXPECT_NE(beyond.status().message().find("stock of 2"), std::string::npos)
      << beyond.status();
  EXPECT_EQ(LastSerial("110", 2025), 2);
  auto stock = office_->GetStock(op110_, "110", 2025);
  ASSERT_TRUE(stock.ok());
  EXPECT_EQ(stock->used, 2);
  // The national body needs no stock.
  const auto q = MustRegister("李四", "000", R("5k"));
  EXPECT_EQ(MustIssue(national_, Request(q, "5k")).number.ToString(),
            "000250001");
}

TEST_F(IssueTest, ARetryWithTheSameRequestIdReturnsTheSameCertificate) {
  GiveStock("110", 2025, 10);
  const auto p = MustRegister("张三", "110", R("1k"));
  IssueRequest r = Request(p, "1d");
  r.request_id = "batch-7/row-12";
  const Certificate first = MustIssue(op110_, r);
  const Certificate again = MustIssue(op110_, r);
  EXPECT_EQ(again.number, first.number);
  EXPECT_EQ(again.issued_unix, first.issued_unix);
  EXPECT_EQ(LastSerial("110", 2025), 1);
  EXPECT_EQ(History(p.id).size(), 2u)
      << "the retry must not change the rank again";
  IssueRequest other = r;
  other.grade = R("2d");
  auto refused = office_->Issue(op110_, other);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kAlreadyExists)
      << refused.status();
  EXPECT_EQ(LastSerial("110", 2025), 1);
  EXPECT_EQ(RankOf(p.id), R("1d"));
  // Without a request id every call is a new certificate.
  r.request_id.clear();
  EXPECT_EQ(MustIssue(op110_, r).number.serial, 2);
}

TEST_F(IssueTest, RejectsMalformedRequests) {
  const auto p = MustRegister("张三", "000");
  IssueRequest no_grade = Request(p, "1k");
  no_grade.grade.reset();
  IssueRequest no_basis = Request(p, "1k");
  no_basis.basis_reference.clear();
  IssueRequest future = Request(p, "1k");
  future.issue_date = Date{2025, 6, 3};
  IssueRequest long_id = Request(p, "1k");
  long_id.request_id = std::string(129, 'x');
  for (const IssueRequest& r : {no_grade, no_basis, future, long_id}) {
    EXPECT_EQ(office_->Issue(national_, r).status().code(),
              absl::StatusCode::kInvalidArgument);
  }
  EXPECT_EQ(LastSerial("000", 2025), 0);
}

}  // namespace
}  // namespace gorank::certificates
