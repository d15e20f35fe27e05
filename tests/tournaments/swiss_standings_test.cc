// Swiss standings, SPEC section 4: total = P + SOS/R - R, compared exactly
// as K = P*R + SOS - R*R; a bye scores 2 and adds a virtual opponent of R
// points; a withdrawn opponent counts P + A x unplayed (A = P / games
// played, capped at 1). Criteria columns: points, SOS, total, warnings.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/tournaments/standings.h"
#include "tests/tournaments/results_builder.h"

namespace gorank::tournaments {
namespace {

using testing::MakeEvent;
using testing::ResultsBuilder;
using testing::Summary;

// Five players, three rounds, one bye a round.
//   R1: 1 beats 2, 3 beats 4, 5 bye
//   R2: 1 beats 3, 5 beats 2, 4 bye
//   R3: 1 draws 4, 3 beats 5, 2 bye
// P: 1=5, 2=2, 3=4, 4=3, 5=4.  SOS (bye = 3):
//   1: 2+4+3 = 9    2: 5+4+3 = 12   3: 3+5+4 = 12
//   4: 4+3+5 = 12   5: 3+2+4 = 9
// K = 3P + SOS - 9: 1=15, 2=9, 3=15, 4=12, 5=12; total = K/3.
ResultsBuilder FivePlayers() {
  return ResultsBuilder()
      .Players(5)
      .Win(1, 1, 2)
      .Win(1, 3, 4)
      .ByeFor(1, 5)
      .Win(2, 1, 3)
      .Win(2, 5, 2)
      .ByeFor(2, 4)
      .Draw(3, 1, 4)
      .Win(3, 3, 5)
      .ByeFor(3, 2);
}

struct Case {
  const char* name;
  SwissRanking ranking;
  ResultsBuilder results;
  const char* want;
};

class Swiss : public ::testing::TestWithParam<Case> {};

TEST_P(Swiss, PlacesAndCriteria) {
  Event event = MakeEvent(FormatKind::kSwiss, 3);
  event.format.swiss_ranking = GetParam().ranking;
  auto s = ComputeStandings(event, GetParam().results.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(Summary(*s), GetParam().want);
}

INSTANTIATE_TEST_SUITE_P(
    Spec, Swiss,
    ::testing::Values(
        // The literal rule: the total ranks everyone, so P3 (4 points)
        // shares first place with P1 (5 points).
        Case{"TotalRanksEveryone", SwissRanking::kTotal, FivePlayers(),
             "1= P1 5 9 5 0\n1= P3 4 12 5 0\n3= P4 3 12 4 0\n3= P5 4 9 4 0\n"
             "5 P2 2 12 3 0\n"},
        Case{"PointsFirstOption", SwissRanking::kPointsFirst, FivePlayers(),
             "1 P1 5 9 5 0\n2 P3 4 12 5 0\n3 P5 4 9 4 0\n4 P4 3 12 4 0\n"
             "5 P2 2 12 3 0\n"},
        // A warning for P3 (in its R1 win) breaks the tie with P1 (B).
        Case{"FewerWarnings", SwissRanking::kTotal,
             ResultsBuilder()
                 .Players(5)
                 .Win(1, 1, 2)
                 .Win(1, 3, 4)
                 .Warnings(1, 0)
                 .ByeFor(1, 5)
                 .Win(2, 1, 3)
                 .Win(2, 5, 2)
                 .ByeFor(2, 4)
                 .Draw(3, 1, 4)
                 .Win(3, 3, 5)
                 .ByeFor(3, 2),
             "1 P1 5 9 5 0\n2 P3 4 12 5 1\n3= P4 3 12 4 0\n3= P5 4 9 4 0\n"
             "5 P2 2 12 3 0\n"}),
    [](const auto& info) { return std::string(info.param.name); });

// A bye scores 2 and adds a virtual opponent of R points to SOS.
TEST(SwissBye, CountsAsAVirtualOpponentWithRPoints) {
  ResultsBuilder b;
  b.Players(4).Win(1, 1, 3).ByeFor(1, 2).ByeFor(1, 4).Win(2, 2, 4).Win(2, 3, 1);
  // R = 2. P: 1=2, 2=4, 3=2, 4=2.  SOS: 1 = 2 + 2 = 4;
  // 2 = bye 2 + P4 2 = 4; 3 = 2 + 2 = 4; 4 = bye 2 + P2 4 = 6.
  // K = 2P + SOS - 4: 1=4, 2=8, 3=4, 4=6.
  auto s = ComputeStandings(MakeEvent(FormatKind::kSwiss, 2), b.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(Summary(*s),
            "1 P2 4 4 4 0\n2 P4 2 6 3 0\n3= P1 2 4 2 0\n3= P3 2 4 2 0\n");
}

// R = 5, standings after round 3. P5 draws P1, loses to P2 and P3, and
// withdraws after round 3: P = 1, games played 3, A = 1/3, unplayed 2,
// so P5 counts 1 + 2/3 = 5/3 in its opponents' SOS (exact, never 1.67;
// shown as the mixed number "1 2/3").
//   R1: 1 draws 5, 2 beats 3   R2: 2 beats 5, 1 beats 3   R3: 3 beats 5, 1
//   beats 2
// P: 1=5, 2=4, 3=2, 5=1.
// SOS: 1 = 5/3 + 2 + 4 = 23/3; 2 = 2 + 5/3 + 5 = 26/3;
//      3 = 4 + 5 + 5/3 = 32/3; 5 = 5 + 4 + 2 = 11.
// total = P + SOS/5 - 5: 1 = 23/15, 2 = 11/15, 3 = -13/15, 5 = -9/5.
TEST(SwissWithdrawal, WithdrawnOpponentCountsPointsPlusATimesUnplayed) {
  ResultsBuilder b;
  b.Players(3)
      .Player(5, "P5")
      .Draw(1, 1, 5)
      .Win(1, 2, 3)
      .Win(2, 2, 5)
      .Win(2, 1, 3)
      .Win(3, 3, 5)
      .Win(3, 1, 2)
      .Withdraw(5, 3);
  auto s = ComputeStandings(MakeEvent(FormatKind::kSwiss, 5), b.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(Summary(*s),
            "1 P1 5 7 2/3 1 8/15 0\n2 P2 4 8 2/3 11/15 0\n"
            "3 P3 2 10 2/3 -13/15 0\n4 P5 1 11 -1.8 0\n");
  EXPECT_EQ(s->rows[3].note,
            "withdrew after round 3; counts 1 2/3 in opponents' SOS");
}

struct WithdrawnCase {
  const char* name;
  std::vector<int> w_results;  // W's points game by game (2, 1 or 0)
  int rounds;
  int after;
  Rational want;  // W's score in X's SOS
};

class WithdrawnScore : public ::testing::TestWithParam<WithdrawnCase> {};

// W plays X in round 1 and fresh opponents afterwards, then withdraws; X's
// SOS is exactly the score W counts for its opponents.
TEST_P(WithdrawnScore, PointsPlusATimesUnplayed) {
  const WithdrawnCase& c = GetParam();
  ResultsBuilder b;
  b.Player(1, "W").Player(2, "X");
  for (size_t g = 0; g < c.w_results.size(); ++g) {
    const int round = static_cast<int>(g) + 1;
    const int opponent = g == 0 ? 2 : 10 + round;
    if (g > 0) b.Player(opponent, "O" + std::to_string(round));
    if (c.w_results[g] == 2) b.Win(round, 1, opponent);
    if (c.w_results[g] == 1) b.Draw(round, 1, opponent);
    if (c.w_results[g] == 0) b.Win(round, opponent, 1);
  }
  b.Withdraw(1, c.after);
  auto s = ComputeStandings(MakeEvent(FormatKind::kSwiss, c.rounds), b.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  bool found = false;
  for (const StandingRow& row : s->rows) {
    if (row.name != "X") continue;
    found = true;
    EXPECT_EQ(row.criteria[1], c.want) << row.criteria[1].ToString();
  }
  EXPECT_TRUE(found);
}

INSTANTIATE_TEST_SUITE_P(
    Spec, WithdrawnScore,
    ::testing::Values(
        // A = 4/2 = 2, capped at 1: 4 + 1 x (5 - 2) = 7.
        WithdrawnCase{"TwoWinsCapped", {2, 2}, 5, 2, Rational(7)},
        // A = 2/2 = 1: 2 + 1 x 3 = 5.
        WithdrawnCase{"WinAndLoss", {2, 0}, 5, 2, Rational(5)},
        // A = 1/2: 1 + 1/2 x 3 = 5/2.
        WithdrawnCase{"DrawAndLoss", {1, 0}, 5, 2, Rational(5, 2)},
        // A = 1/3: 1 + 1/3 x 2 = 5/3.
        WithdrawnCase{"OneDrawInThree", {1, 0, 0}, 5, 3, Rational(5, 3)},
        // A = 0: 0.
        WithdrawnCase{"LossOnly", {0}, 5, 1, Rational(0)}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Swiss, ForfeitCountsInOpponentsSumsButNotAsPlayed) {
  ResultsBuilder b;
  b.Players(2).ForfeitWin(1, 1, 2);
  auto s = ComputeStandings(MakeEvent(FormatKind::kSwiss, 1), b.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  // R = 1: P1 total = 2 + 0/1 - 1 = 1; P2 = 0 + 2 - 1 = 1: equal, shared.
  EXPECT_EQ(Summary(*s), "1= P1 2 0 1 0\n1= P2 0 2 1 0\n");
  EXPECT_EQ(s->entrants_played, 0);
}

TEST(Swiss, RoundBeyondRIsRefused) {
  ResultsBuilder b;
  b.Players(2).Win(4, 1, 2);
  auto s = ComputeStandings(MakeEvent(FormatKind::kSwiss, 3), b.Build());
  ASSERT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.status().message()).find("round outside 1..3"),
            std::string::npos);
}

}  // namespace
}  // namespace gorank::tournaments
