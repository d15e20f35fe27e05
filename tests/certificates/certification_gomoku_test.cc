// Gomoku certificates: one PPPYYSSSS counter for both disciplines, the
// discipline stored and shown by verification and lookup, a Gomoku
// certificate changing only the Gomoku rank (and a Go one only the Go rank),
// the authority limits mirrored from amateur Go with 6d the highest Gomoku
// dan awarded for now, notice for Gomoku 4d..6d, and revocation falling back
// within the revoked certificate's discipline.
#include <string>

#include "tests/certificates/certification_fixture.h"

namespace gorank::certificates {
namespace {

using registry::Discipline;

constexpr int64_t kDay = 86400;

registry::Rank G(const char* text) {
  return *registry::Rank::Parse(text, Discipline::kGomoku);
}

class GomokuCertificateTest : public CertificationFixture {
 protected:
  void SetUp() override { GiveStock("110", 2025, 50); }

  static IssueRequest GomokuRequest(const registry::Player& p,
                                    const char* grade,
                                    const std::string& prefix = "") {
    IssueRequest r = Request(p, "1k", prefix);
    r.grade = G(grade);
    r.basis_reference = "2025 provincial Gomoku championship, 1st place";
    return r;
  }
  std::optional<registry::Rank> GomokuRankOf(registry::PlayerId id) {
    auto p = registry_->Get(national_, id);
    EXPECT_TRUE(p.ok()) << p.status();
    return p.ok() ? p->gomoku_rank : std::nullopt;
  }
  std::string StoredDiscipline(const Certificate& c) {
    std::string out;
    EXPECT_TRUE(
        db_->Read([&](storage::Connection& conn) -> absl::Status {
             auto st = conn.Prepare(
                 "SELECT discipline FROM certificates WHERE number = ?1");
             if (!st.ok()) return st.status();
             (*st)->Bind(1, c.number.ToString());
             auto row = (*st)->Step();
             if (!row.ok()) return row.status();
             if (*row) out = (*st)->Text(0);
             return absl::OkStatus();
           })
            .ok());
    return out;
  }
};

TEST_F(GomokuCertificateTest,
       OneCounterForBothDisciplinesAndTheMarkerIsStored) {
  const auto p = MustRegister("张三", "110", R("1k"));
  const Certificate go = MustIssue(op110_, Request(p, "1d"));
  const Certificate gomoku = MustIssue(op110_, GomokuRequest(p, "2d"));
  const Certificate go2 = MustIssue(op110_, Request(p, "2d"));
  EXPECT_EQ(go.number.ToString(), "110250001");
  EXPECT_EQ(gomoku.number.ToString(), "110250002");
  EXPECT_EQ(go2.number.ToString(), "110250003");
  EXPECT_EQ(LastSerial("110", 2025), 3);
  EXPECT_EQ(StoredDiscipline(go), "go");
  EXPECT_EQ(StoredDiscipline(gomoku), "gomoku");
  EXPECT_EQ(office_->Get(national_, "110250002")->grade, G("2d"));
  EXPECT_EQ(office_->Get(national_, "110250002")->grade.discipline(),
            Discipline::kGomoku);
}

TEST_F(GomokuCertificateTest, EachCertificateChangesOnlyItsOwnDisciplinesRank) {
  const auto p = MustRegister("李四", "110", R("2d"));
  MustIssue(op110_, GomokuRequest(p, "1d"));
  EXPECT_EQ(RankOf(p.id), R("2d"));
  EXPECT_EQ(GomokuRankOf(p.id), G("1d"));
  // A Go certificate changes the Go rank; the Gomoku rank stays.
  MustIssue(op110_, Request(p, "3d"));
  EXPECT_EQ(RankOf(p.id), R("3d"));
  EXPECT_EQ(GomokuRankOf(p.id), G("1d"));
  // Gomoku 3d is not "below" the Go 3d: each compares with its own rank.
  MustIssue(op110_, GomokuRequest(p, "3d"));
  EXPECT_EQ(GomokuRankOf(p.id), G("3d"));
  // Below the Gomoku rank needs the correction flag, whatever the Go rank.
  EXPECT_EQ(office_->Issue(op110_, GomokuRequest(p, "2d")).status().code(),
            absl::StatusCode::kFailedPrecondition);

  const auto history = History(p.id);
  ASSERT_EQ(history.size(), 4u);  // registration + three certificates
  EXPECT_EQ(history[1].discipline, Discipline::kGomoku);
  EXPECT_EQ(history[1].from_rank, std::nullopt);
  EXPECT_EQ(history[2].discipline, Discipline::kGo);
  EXPECT_EQ(history[2].from_rank, R("2d"));
  EXPECT_EQ(history[3].discipline, Discipline::kGomoku);
  EXPECT_EQ(history[3].from_rank, G("1d"));
}

TEST_F(GomokuCertificateTest, AuthorityMirrorsAmateurGoWithSixDanTheHighest) {
  const auto p = MustRegister("王五", "110");
  const int64_t serial = LastSerial("110", 2025);
  // Agencies: Gomoku 10k..3d under their own prefix.
  EXPECT_EQ(office_->Issue(op110_, GomokuRequest(p, "4d")).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(
      office_->Issue(op120_, GomokuRequest(p, "1k", "120")).status().code(),
      absl::StatusCode::kPermissionDenied);
  // 7d..9d are on the ladder but not awarded yet, not even nationally.
  for (const char* high : {"7d", "9d"}) {
    const auto s =
        office_->Issue(national_, GomokuRequest(p, high, "000")).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << high;
    EXPECT_NE(std::string(s.message())
                  .find("highest Gomoku dan awarded for now is 6d"),
              std::string::npos)
        << s;
  }
  IssueRequest honorary = GomokuRequest(p, "6d", "000");
  honorary.basis = Basis::kHonoraryAward;
  EXPECT_EQ(office_->Issue(national_, honorary).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(LastSerial("110", 2025), serial);
  EXPECT_EQ(LastSerial("000", 2025), 0);
  EXPECT_EQ(GomokuRankOf(p.id), std::nullopt);

  // 10k is certifiable (unlike Go, the Gomoku ladder starts there) and
  // needs no complete holder record; the national body issues 6d.
  const auto bare =
      MustRegister("赵六", "110", std::nullopt, /*complete=*/false);
  MustIssue(op110_, GomokuRequest(bare, "10k"));
  EXPECT_EQ(
      office_->Issue(op110_, GomokuRequest(bare, "1d")).status().code(),
      absl::StatusCode::kFailedPrecondition);  // 1d needs gender, birth date
  const Certificate six = MustIssue(national_, GomokuRequest(p, "6d", "000"));
  EXPECT_EQ(office_->StateOf(six), CertificateState::kUnderNotice);
  EXPECT_EQ(GomokuRankOf(p.id), std::nullopt) << "applied when the notice ends";
  clock_.Set(clock_.NowSeconds() + 8 * kDay);
  EXPECT_EQ(GomokuRankOf(p.id), G("6d"));
  EXPECT_EQ(RankOf(p.id), std::nullopt);
}

TEST_F(GomokuCertificateTest, RevocationFallsBackWithinTheDiscipline) {
  const auto p = MustRegister("孙七", "110", R("1k"));
  MustIssue(op110_, Request(p, "1d"));
  const Certificate g1 = MustIssue(op110_, GomokuRequest(p, "1d"));
  const Certificate g2 = MustIssue(op110_, GomokuRequest(p, "2d"));
  const Certificate go2 = MustIssue(op110_, Request(p, "2d"));

  // Revoking Gomoku 2d: back to Gomoku 1d; the Go 2d stays.
  ASSERT_TRUE(
      office_->Revoke(op110_, g2.number.ToString(), "result annulled").ok());
  EXPECT_EQ(GomokuRankOf(p.id), G("1d"));
  EXPECT_EQ(RankOf(p.id), R("2d"));
  // Revoking Go 2d: back to Go 1d (not to a Gomoku grade).
  ASSERT_TRUE(office_->Revoke(op110_, go2.number.ToString(), "duplicate").ok());
  EXPECT_EQ(RankOf(p.id), R("1d"));
  EXPECT_EQ(GomokuRankOf(p.id), G("1d"));
  // The last Gomoku certificate: no Gomoku rank at all; Go untouched.
  ASSERT_TRUE(office_->Revoke(op110_, g1.number.ToString(), "forged").ok());
  EXPECT_EQ(GomokuRankOf(p.id), std::nullopt);
  EXPECT_EQ(RankOf(p.id), R("1d"));
  const auto history = History(p.id);
  EXPECT_EQ(history.back().discipline, Discipline::kGomoku);
  EXPECT_EQ(history.back().from_rank, G("1d"));
  EXPECT_EQ(history.back().to_rank, std::nullopt);
}

TEST_F(GomokuCertificateTest, VerifyAndLookupShowTheDiscipline) {
  const auto p = MustRegister("周八", "110", R("3k"));
  const Certificate g = MustIssue(op110_, GomokuRequest(p, "2d"));
  const Certificate go = MustIssue(op110_, Request(p, "1d"));
  auto vg = office_->Verify(g.number.ToString(), "周八");
  ASSERT_TRUE(vg.ok()) << vg.status();
  EXPECT_EQ(vg->outcome, VerifyOutcome::kValid);
  ASSERT_TRUE(vg->grade.has_value());
  EXPECT_EQ(vg->grade->discipline(), Discipline::kGomoku);
  EXPECT_EQ(*vg->grade, G("2d"));
  auto vgo = office_->Verify(go.number.ToString(), "周八");
  ASSERT_TRUE(vgo.ok());
  EXPECT_EQ(vgo->grade->discipline(), Discipline::kGo);

  auto found = office_->LookupRank(auth::Caller::Public(), "周八");
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_EQ(found->size(), 1u);
  EXPECT_EQ(found->front().rank, R("1d"));
  EXPECT_EQ(found->front().gomoku_rank, G("2d"));
  ASSERT_EQ(found->front().effective.size(), 2u);
}

}  // namespace
}  // namespace gorank::certificates
