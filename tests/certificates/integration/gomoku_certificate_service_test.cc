// Gomoku as a discipline, through a real gRPC channel to an in-process
// rankd: Go and Gomoku certificates of one agency and year take consecutive
// serials from one counter, every answer carries the discipline, a Gomoku
// certificate moves only the Gomoku rank (rank reads and history show both),
// refused requests (7d, an agency's 4d, a rank of the wrong discipline)
// consume no serial, and a revocation falls back within its discipline.
#include <string>

#include "tests/certificates/integration/grpc_fixture.h"

namespace gorank::certificates {
namespace {

class GomokuCertificateServiceTest : public GrpcFixture {
 protected:
  void SetUp() override {
    op110_ = MustCreateToken(v1::ROLE_AGENCY_OPERATOR, "110");
    MustGiveStock("110", 2025, 100);
    player_ = MustRegister("张三", "110", "1k");
  }

  static v1::IssueCertificateRequest GomokuRequest(int64_t player,
                                                   const std::string& grade,
                                                   const std::string& agency) {
    v1::IssueCertificateRequest r = IssueRequest(player, grade, agency);
    r.set_discipline(v1::DISCIPLINE_GOMOKU);
    r.set_basis_reference("2025 provincial Gomoku championship, 1st place");
    return r;
  }
  v1::Player GetPlayer() {
    v1::GetPlayerRequest req;
    req.set_player_id(player_.id());
    v1::GetPlayerResponse resp;
    auto ctx = Context("");
    EXPECT_TRUE(players_->GetPlayer(ctx.get(), req, &resp).ok());
    return resp.player();
  }

  std::string op110_;
  v1::Player player_;
};

TEST_F(GomokuCertificateServiceTest,
       OneCounterBothDisciplinesAndTheMarkerInEveryAnswer) {
  v1::Certificate go, gomoku, go2;
  ASSERT_TRUE(Issue(op110_, IssueRequest(player_.id(), "1d", "110"), &go).ok());
  const grpc::Status s =
      Issue(op110_, GomokuRequest(player_.id(), "2d", "110"), &gomoku);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_TRUE(
      Issue(op110_, IssueRequest(player_.id(), "2d", "110"), &go2).ok());
  EXPECT_EQ(go.number(), "110250001");
  EXPECT_EQ(gomoku.number(), "110250002");
  EXPECT_EQ(go2.number(), "110250003");
  EXPECT_EQ(go.discipline(), v1::DISCIPLINE_GO);
  EXPECT_EQ(gomoku.discipline(), v1::DISCIPLINE_GOMOKU);
  EXPECT_EQ(gomoku.grade().ladder(), v1::RANK_LADDER_GOMOKU_DAN);
  EXPECT_EQ(gomoku.grade().notation(), "2d");
  EXPECT_EQ(gomoku.grade().discipline(), v1::DISCIPLINE_GOMOKU);

  v1::GetCertificateRequest get;
  get.set_number("110250002");
  v1::GetCertificateResponse got;
  auto gctx = Context(admin_);
  ASSERT_TRUE(certs_->GetCertificate(gctx.get(), get, &got).ok());
  EXPECT_EQ(got.certificate().discipline(), v1::DISCIPLINE_GOMOKU);

  v1::VerifyCertificateRequest vreq;
  vreq.set_number("110250002");
  vreq.set_holder_name("张三");
  v1::VerifyCertificateResponse verified;
  auto vctx = Context("");
  ASSERT_TRUE(certs_->VerifyCertificate(vctx.get(), vreq, &verified).ok());
  EXPECT_EQ(verified.outcome(), v1::VERIFY_OUTCOME_VALID);
  EXPECT_EQ(verified.discipline(), v1::DISCIPLINE_GOMOKU);
  EXPECT_EQ(verified.grade().notation(), "2d");

  // The Gomoku certificate moved only the Gomoku rank.
  const v1::Player p = GetPlayer();
  EXPECT_EQ(p.rank().notation(), "2d");
  EXPECT_EQ(p.rank().discipline(), v1::DISCIPLINE_GO);
  EXPECT_EQ(p.gomoku_rank().notation(), "2d");
  EXPECT_EQ(p.gomoku_rank().ladder(), v1::RANK_LADDER_GOMOKU_DAN);

  v1::GetRankHistoryRequest hreq;
  hreq.set_player_id(player_.id());
  v1::GetRankHistoryResponse history;
  auto hctx = Context("");
  ASSERT_TRUE(players_->GetRankHistory(hctx.get(), hreq, &history).ok());
  ASSERT_EQ(history.entries_size(), 4);  // registration 1k, 1d, Gomoku 2d, 2d
  EXPECT_EQ(history.entries(2).discipline(), v1::DISCIPLINE_GOMOKU);
  EXPECT_FALSE(history.entries(2).has_from_rank());
  EXPECT_EQ(history.entries(3).discipline(), v1::DISCIPLINE_GO);
  EXPECT_EQ(history.entries(3).from_rank().notation(), "1d");

  v1::LookupRankRequest lreq;
  lreq.set_name("张三");
  v1::LookupRankResponse found;
  auto lctx = Context("");
  ASSERT_TRUE(certs_->LookupRank(lctx.get(), lreq, &found).ok());
  ASSERT_EQ(found.players_size(), 1);
  EXPECT_EQ(found.players(0).gomoku_rank().notation(), "2d");
  int gomoku_certs = 0;
  for (const auto& c : found.players(0).certificates()) {
    gomoku_certs += c.discipline() == v1::DISCIPLINE_GOMOKU;
  }
  EXPECT_EQ(gomoku_certs, 1);
}

TEST_F(GomokuCertificateServiceTest, RefusalsArePreciseAndConsumeNoSerial) {
  v1::Certificate out;
  // 7d is on the ladder but not awarded yet, not even by the national body.
  const grpc::Status seven =
      Issue(admin_, GomokuRequest(player_.id(), "7d", "000"), &out);
  EXPECT_EQ(seven.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(seven.error_message().find("6d"), std::string::npos)
      << seven.error_message();
  EXPECT_EQ(Issue(op110_, GomokuRequest(player_.id(), "4d", "110"), &out)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Issue(op110_, GomokuRequest(player_.id(), "11k", "110"), &out)
                .error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  // A Gomoku ladder without the Gomoku discipline, and the other way round.
  v1::IssueCertificateRequest mixed = IssueRequest(player_.id(), "", "110");
  mixed.mutable_grade()->set_ladder(v1::RANK_LADDER_GOMOKU_DAN);
  mixed.mutable_grade()->set_level(1);
  EXPECT_EQ(Issue(op110_, mixed, &out).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  v1::IssueCertificateRequest go_ladder =
      GomokuRequest(player_.id(), "", "110");
  go_ladder.mutable_grade()->set_ladder(v1::RANK_LADDER_AMATEUR_DAN);
  go_ladder.mutable_grade()->set_level(1);
  EXPECT_EQ(Issue(op110_, go_ladder, &out).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  v1::IssueCertificateRequest unknown =
      GomokuRequest(player_.id(), "1d", "110");
  unknown.set_discipline(static_cast<v1::Discipline>(7));
  EXPECT_EQ(Issue(op110_, unknown, &out).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_FALSE(GetPlayer().has_gomoku_rank());

  ASSERT_TRUE(
      Issue(op110_, GomokuRequest(player_.id(), "1d", "110"), &out).ok());
  EXPECT_EQ(out.number(), "110250001") << "the refused requests took no serial";
}

TEST_F(GomokuCertificateServiceTest, RevocationFallsBackWithinTheDiscipline) {
  v1::Certificate g1, g3, go1;
  ASSERT_TRUE(
      Issue(op110_, GomokuRequest(player_.id(), "1d", "110"), &g1).ok());
  ASSERT_TRUE(
      Issue(op110_, GomokuRequest(player_.id(), "3d", "110"), &g3).ok());
  ASSERT_TRUE(
      Issue(op110_, IssueRequest(player_.id(), "1d", "110"), &go1).ok());

  v1::RevokeCertificateRequest rev;
  rev.set_number(g3.number());
  rev.set_reason("result annulled");
  v1::RevokeCertificateResponse revoked;
  auto ctx = Context(op110_);
  ASSERT_TRUE(certs_->RevokeCertificate(ctx.get(), rev, &revoked).ok());
  EXPECT_EQ(revoked.certificate().discipline(), v1::DISCIPLINE_GOMOKU);
  const v1::Player p = GetPlayer();
  EXPECT_EQ(p.gomoku_rank().notation(), "1d");
  EXPECT_EQ(p.rank().notation(), "1d");
  EXPECT_EQ(p.rank().discipline(), v1::DISCIPLINE_GO);
}

TEST_F(GomokuCertificateServiceTest, ChangeRankAndParseRankTakeTheDiscipline) {
  // An award names its basis: here the player's Gomoku 2d certificate.
  v1::Certificate two;
  ASSERT_TRUE(
      Issue(op110_, GomokuRequest(player_.id(), "2d", "110"), &two).ok());
  v1::ChangeRankRequest req;
  req.set_player_id(player_.id());
  req.mutable_new_rank()->set_notation("三段");
  req.set_reason(v1::RANK_CHANGE_REASON_TOURNAMENT_AWARD);
  req.set_basis("2025 provincial Gomoku championship, 1st place");
  req.set_basis_certificate(two.number());
  req.set_discipline(v1::DISCIPLINE_GOMOKU);
  v1::ChangeRankResponse resp;
  auto ctx = Context(op110_);
  const grpc::Status s = players_->ChangeRank(ctx.get(), req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.player().gomoku_rank().notation(), "3d");
  EXPECT_EQ(resp.player().rank().notation(), "1k");
  EXPECT_EQ(resp.entry().discipline(), v1::DISCIPLINE_GOMOKU);

  // A Gomoku rank copied from an answer but sent without the request's
  // discipline is refused, not silently read as Go.
  req.set_discipline(v1::DISCIPLINE_GO);
  *req.mutable_new_rank() = resp.player().gomoku_rank();
  v1::ChangeRankResponse ignored;
  auto ctx2 = Context(op110_);
  EXPECT_EQ(players_->ChangeRank(ctx2.get(), req, &ignored).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);

  std::unique_ptr<v1::RankService::Stub> ranks =
      v1::RankService::NewStub(channel_);
  v1::ParseRankRequest preq;
  preq.set_text("五子棋初段");
  preq.set_discipline(v1::DISCIPLINE_GOMOKU);
  v1::ParseRankResponse parsed;
  auto pctx = Context("");
  ASSERT_TRUE(ranks->ParseRank(pctx.get(), preq, &parsed).ok());
  EXPECT_EQ(parsed.rank().notation(), "1d");
  EXPECT_EQ(parsed.rank().ladder(), v1::RANK_LADDER_GOMOKU_DAN);
  EXPECT_EQ(parsed.chinese(), "五子棋初段");
}

}  // namespace
}  // namespace gorank::certificates
