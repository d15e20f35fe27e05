// Revocation: the rank falls back to the best remaining effective
// certificate or the rank held before; revoking what did not give the rank
// changes nothing; the history records the reversal; numbers stay taken.
#include <string>

#include "tests/certificates/certification_fixture.h"

namespace gorank::certificates {
namespace {

constexpr int64_t kDay = 86400;

class RevokeTest : public CertificationFixture {
 protected:
  void SetUp() override { GiveStock("110", 2025, 50); }

  Certificate MustRevoke(const auth::Caller& caller, const Certificate& c,
                         const std::string& reason) {
    auto r = office_->Revoke(caller, c.number.ToString(), reason);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : Certificate{};
  }
};

TEST_F(RevokeTest, FallsBackToTheBestRemainingCertificateThenToTheEarlierRank) {
  const auto p = MustRegister("张三", "110", R("1k"));
  const Certificate one = MustIssue(op110_, Request(p, "1d"));
  const Certificate two = MustIssue(op110_, Request(p, "2d"));
  const Certificate three = MustIssue(op110_, Request(p, "3d"));
  ASSERT_EQ(RankOf(p.id), R("3d"));
  const size_t before = History(p.id).size();

  const Certificate revoked = MustRevoke(op110_, three, "result annulled");
  EXPECT_EQ(revoked.revoke_reason, "result annulled");
  EXPECT_EQ(office_->StateOf(revoked), CertificateState::kRevoked);
  EXPECT_EQ(RankOf(p.id), R("2d"));
  auto history = History(p.id);
  ASSERT_EQ(history.size(), before + 1);
  EXPECT_EQ(history.back().from_rank, R("3d"));
  EXPECT_EQ(history.back().to_rank, R("2d"));
  EXPECT_EQ(history.back().reason, registry::RankChangeReason::kRevocation);
  EXPECT_NE(history.back().basis.find(three.number.ToString()),
            std::string::npos);
  EXPECT_NE(history.back().basis.find("result annulled"), std::string::npos);

  MustRevoke(national_, two, "duplicate");
  EXPECT_EQ(RankOf(p.id), R("1d"));
  MustRevoke(op110_, one, "forged");
  EXPECT_EQ(RankOf(p.id), R("1k"))
      << "no certificate left: the rank before the first one";
  EXPECT_EQ(History(p.id).size(), before + 3);
}

TEST_F(RevokeTest, TheBestRemainingCertificateMayBeAboveTheRankBefore) {
  // 5d posted first, 4d a day later: the 5d takes effect over 3d, the 4d
  // then takes effect without changing the rank. Revoking the 5d falls back
  // to the effective 4d, not to the 3d held before the 5d.
  const auto p = MustRegister("李四", "110", R("3d"));
  const int64_t t0 = clock_.NowSeconds();
  const Certificate five = MustIssue(national_, Request(p, "5d", "000"));
  clock_.Set(t0 + 1 * kDay);
  MustIssue(national_, Request(p, "4d", "000"));
  clock_.Set(t0 + 8 * kDay);
  ASSERT_EQ(RankOf(p.id), R("5d"));
  auto settled = office_->Get(national_, five.number.ToString());
  ASSERT_TRUE(settled.ok());
  EXPECT_EQ(settled->rank_before, R("3d"));
  MustRevoke(national_, five, "annulled");
  EXPECT_EQ(RankOf(p.id), R("4d"));
}

TEST_F(RevokeTest, RevokingAnOlderLowerCertificateLeavesTheCurrentRank) {
  const auto p = MustRegister("王五", "110", R("1k"));
  const Certificate one = MustIssue(op110_, Request(p, "1d"));
  MustIssue(op110_, Request(p, "3d"));
  const size_t before = History(p.id).size();
  MustRevoke(op110_, one, "issued twice");
  EXPECT_EQ(RankOf(p.id), R("3d"));
  EXPECT_EQ(History(p.id).size(), before);
}

TEST_F(RevokeTest, ACertificateUnderNoticeNeverChangesTheRank) {
  const auto p = MustRegister("赵六", "110", R("3d"));
  const int64_t t0 = clock_.NowSeconds();
  const Certificate four = MustIssue(national_, Request(p, "4d", "000"));
  clock_.Set(t0 + 3 * kDay);
  MustRevoke(national_, four, "withdrawn");
  clock_.Set(t0 + 8 * kDay);
  EXPECT_EQ(RankOf(p.id), R("3d"));
  EXPECT_EQ(History(p.id).size(), 1u);
}

TEST_F(RevokeTest, ASettledNoticeFallsBackToTheRankBeforeIt) {
  const auto p = MustRegister("钱七", "110", R("3d"));
  const int64_t t0 = clock_.NowSeconds();
  const Certificate four = MustIssue(national_, Request(p, "4d", "000"));
  clock_.Set(t0 + 7 * kDay);
  ASSERT_EQ(RankOf(p.id), R("4d"));
  MustRevoke(national_, four, "doping");
  EXPECT_EQ(RankOf(p.id), R("3d"));
  EXPECT_EQ(History(p.id).back().reason,
            registry::RankChangeReason::kRevocation);
}

TEST_F(RevokeTest, RulesAndNumbersStayTaken) {
  const auto p = MustRegister("孙八", "110", R("1k"));
  const Certificate c = MustIssue(op110_, Request(p, "1d"));
  const std::string n = c.number.ToString();
  EXPECT_EQ(office_->Revoke(op120_, n, "x").status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(office_->Revoke(op110_, n, "").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(office_->Revoke(op110_, "110259999", "x").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(office_->Revoke(op110_, "1102599", "x").status().code(),
            absl::StatusCode::kInvalidArgument);
  MustRevoke(op110_, c, "error");
  EXPECT_EQ(office_->Revoke(national_, n, "again").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(MustIssue(op110_, Request(p, "1k")).number.serial, 2)
      << "a revoked number is never reused";
}

}  // namespace
}  // namespace gorank::certificates
