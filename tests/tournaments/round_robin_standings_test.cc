// Round-robin standings, SPEC section 4, with hand-computed expectations.
// Criteria columns: points, A (= beaten opponents' points + half the drawn
// opponents' points), warnings.
#include <string>

#include "gtest/gtest.h"
#include "services/tournaments/standings.h"
#include "tests/tournaments/results_builder.h"

namespace gorank::tournaments {
namespace {

using testing::MakeEvent;
using testing::ResultsBuilder;
using testing::Summary;

struct Case {
  const char* name;
  bool shared_allowed;
  ResultsBuilder results;
  const char* want;
  StandingsStatus status = StandingsStatus::kFinal;
};

// 1 beats 2, 2 beats 3, 3 beats 1, everyone beats 4: 1, 2, 3 have 4 points
// and A = 4 (a beaten 4-point player + a beaten 0-point player).
ResultsBuilder Cycle() {
  return ResultsBuilder()
      .Players(4)
      .Win(1, 1, 2)
      .Win(1, 3, 4)
      .Win(2, 2, 3)
      .Win(2, 1, 4)
      .Win(3, 3, 1)
      .Win(3, 2, 4);
}

class RoundRobin : public ::testing::TestWithParam<Case> {};

TEST_P(RoundRobin, PlacesAndCriteria) {
  Event event = MakeEvent(FormatKind::kRoundRobin);
  event.shared_places_allowed = GetParam().shared_allowed;
  auto s = ComputeStandings(event, GetParam().results.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->status, GetParam().status) << s->pending_reason;
  EXPECT_EQ(Summary(*s), GetParam().want);
}

INSTANTIATE_TEST_SUITE_P(
    Spec, RoundRobin,
    ::testing::Values(
        Case{"SharedPlace", true, Cycle(),
             "1= P1 4 4 0\n1= P2 4 4 0\n1= P3 4 4 0\n4 P4 0 0 0\n"},
        Case{"FewerWarningsFirst", true,
             Cycle().Warnings(1, 0),  // P2 warned in its win over P4
             "1= P1 4 4 0\n1= P3 4 4 0\n3 P2 4 4 1\n4 P4 0 0 0\n"},
        Case{
            "PendingPlayoffWhenSharingForbidden", false, Cycle(),
            "pending play-off (1-3) P1 4 4 0\npending play-off (1-3) P2 4 4 0\n"
            "pending play-off (1-3) P3 4 4 0\n4 P4 0 0 0\n",
            StandingsStatus::kPendingPlayoff},
        Case{"RecordedLotsSeparate", false,
             Cycle().Decide(TieDecisionMethod::kLots, {3, 1, 2}),
             "1 (lots) P3 4 4 0\n2 (lots) P1 4 4 0\n3 (lots) P2 4 4 0\n"
             "4 P4 0 0 0\n"},
        Case{"RecordedPlayoffEvenWhereSharingAllowed", true,
             Cycle().Decide(TieDecisionMethod::kPlayoff, {2, 3, 1}),
             "1 (play-off) P2 4 4 0\n2 (play-off) P3 4 4 0\n"
             "3 (play-off) P1 4 4 0\n4 P4 0 0 0\n"},
        Case{"RuleADecidesAndDrawsCountHalf", true,
             ResultsBuilder()
                 .Players(4)
                 .Draw(1, 1, 2)
                 .Draw(1, 3, 4)
                 .Win(2, 1, 3)
                 .Win(2, 4, 2)
                 .Win(3, 1, 4)
                 .Win(3, 2, 3),
             // points: P1 1+2+2=5, P2 1+0+2=3, P3 1+0+0=1, P4 1+2+0=3
             // A: P1 = 3/2 (drew P2) + 1 (P3) + 3 (P4) = 5.5
             //    P2 = 5/2 (drew P1) + 1 (beat P3) = 3.5
             //    P4 = 1/2 (drew P3) + 3 (beat P2) = 3.5 -> P2, P4 share
             //    P3 = 3/2 (drew P4) = 1.5
             "1 P1 5 5.5 0\n2= P2 3 3.5 0\n2= P4 3 3.5 0\n4 P3 1 1.5 0\n"},
        Case{
            "DoubleForfeitScoresNothingAndBeatsNobody", true,
            ResultsBuilder().Players(3).DoubleForfeit(1, 1, 2).Win(2, 1, 3).Win(
                3, 3, 2),
            // P1 2 (beat P3: 2) A=2; P3 2 (beat P2: 0) A=0; P2 0
            "1 P1 2 2 0\n2 P3 2 0 0\n3 P2 0 0 0\n"}),
    [](const auto& info) { return std::string(info.param.name); });

// Five players, S = 4 games each. P5 plays one game (2p = 2 < 4): every
// result of P5 is void and P5 leaves the standings.
TEST(RoundRobinWithdrawal, FewerThanHalfPlayedVoidsEverything) {
  ResultsBuilder b;
  b.Players(5)
      .Win(1, 5, 1)
      .Win(1, 2, 3)
      .Win(2, 1, 2)
      .Win(2, 3, 4)
      .Win(3, 1, 3)
      .Win(3, 2, 4)
      .Win(4, 1, 4)
      .Withdraw(5, 1);
  auto s = ComputeStandings(MakeEvent(FormatKind::kRoundRobin), b.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  // Without P5: P1 beat 2, 3, 4 (4+2+0), P2 beat 3, 4 (2+0), P3 beat 4.
  EXPECT_EQ(Summary(*s), "1 P1 6 6 0\n2 P2 4 2 0\n3 P3 2 0 0\n4 P4 0 0 0\n");
  ASSERT_EQ(s->voided.size(), 1u);
  EXPECT_EQ(s->voided[0].value, 5);
  EXPECT_EQ(s->entrants_played, 4);  // voided entrants do not count
}

// P5 plays two games (2p = 4 >= S = 4) then withdraws: the two missing
// meetings (with P3 and P4) become forfeit wins for P3 and P4, and those
// forfeits count as beaten opponents in rule A.
TEST(RoundRobinWithdrawal, HalfPlayedTurnsTheRestIntoForfeits) {
  ResultsBuilder b;
  b.Players(5)
      .Win(1, 5, 1)
      .Win(1, 2, 3)
      .Win(2, 2, 5)
      .Win(2, 1, 3)
      .Win(3, 1, 4)
      .Win(4, 2, 4)
      .Draw(5, 3, 4)
      .Win(5, 1, 2)
      .Withdraw(5, 2);
  auto s = ComputeStandings(MakeEvent(FormatKind::kRoundRobin), b.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  // points: P1 0+2+2+2 = 6, P2 2+2+2+0 = 6, P3 0+0+1+2(forfeit) = 3,
  //         P4 0+1+2(forfeit) = 3, P5 2.
  // A: P1 beat P3 (3), P4 (3), P2 (6) = 12; P2 beat P3, P5, P4 = 3+2+3 = 8;
  //    P3 drew P4 (1.5) + beat P5 (2) = 3.5; P4 the same; P5 beat P1 = 6.
  EXPECT_EQ(Summary(*s),
            "1 P1 6 12 0\n2 P2 6 8 0\n3= P3 3 3.5 0\n3= P4 3 3.5 0\n"
            "5 P5 2 6 0\n");
  EXPECT_TRUE(s->voided.empty());
  EXPECT_EQ(s->rows[4].note,
            "withdrew after round 2; remaining games forfeited");
  EXPECT_EQ(s->entrants_played, 5);
}

TEST(RoundRobin, UnknownResultBlocksTheStandings) {
  ResultsBuilder b;
  b.Players(3).Win(1, 1, 2).Unknown(2, 2, 3);
  auto s = ComputeStandings(MakeEvent(FormatKind::kRoundRobin), b.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->status, StandingsStatus::kPendingResults);
  EXPECT_EQ(s->pending_reason, "unknown results: round 2 2 v 3");
  EXPECT_TRUE(s->rows.empty());
}

TEST(RoundRobin, RefusesInconsistentResults) {
  ResultsBuilder b;
  b.Players(3).Win(1, 1, 2).Win(1, 1, 3).Win(2, 2, 9).Warnings(2, 0);
  auto s = ComputeStandings(MakeEvent(FormatKind::kRoundRobin), b.Build());
  ASSERT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string m(s.status().message());
  EXPECT_NE(m.find("round 1 game 1 v 3: entrant 1 already plays in round 1"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("round 2 game 2 v 9: unknown entrant"), std::string::npos)
      << m;
}

TEST(RoundRobin, TwoWarningsMustBeRecordedAsALoss) {
  ResultsBuilder b;
  b.Players(2).Win(1, 1, 2).Warnings(2, 0);
  auto s = ComputeStandings(MakeEvent(FormatKind::kRoundRobin), b.Build());
  ASSERT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(
      std::string(s.status().message()).find("two warnings lose the game"),
      std::string::npos);
}

}  // namespace
}  // namespace gorank::tournaments
