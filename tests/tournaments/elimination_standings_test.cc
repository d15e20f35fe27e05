// Knockout, relay and match standings (SPEC section 4, readings taken:
// knockout places 1, 2, 3=, 5=, 9=, ...; a recorded third-place play-off
// separates 3 and 4). Criteria columns: knockout - ties won, eliminated in
// round (0 = not eliminated); relay - games won, eliminated at game;
// match - points.
#include <string>

#include "gtest/gtest.h"
#include "services/tournaments/standings.h"
#include "tests/tournaments/results_builder.h"

namespace gorank::tournaments {
namespace {

using testing::MakeEvent;
using testing::ResultsBuilder;

// A full single-elimination bracket of n = 2^k players in which the lower
// number always wins: round r pairs i with (size + 1 - i) among survivors.
ResultsBuilder Bracket(int n) {
  ResultsBuilder b;
  b.Players(n);
  int round = 1;
  for (int size = n; size > 1; size /= 2, ++round) {
    for (int i = 1; i <= size / 2; ++i) b.Win(round, i, size + 1 - i);
  }
  return b;
}

std::vector<std::string> Labels(const Standings& s) {
  std::vector<std::string> out;
  for (const StandingRow& r : s.rows) out.push_back(r.place_label);
  return out;
}

TEST(Knockout, EightPlayersGiveOneTwoThreeEqualFiveEqual) {
  auto s =
      ComputeStandings(MakeEvent(FormatKind::kKnockout), Bracket(8).Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(testing::Summary(*s),
            "1 P1 3 0\n2 P2 2 3\n3= P3 1 2\n3= P4 1 2\n"
            "5= P5 0 1\n5= P6 0 1\n5= P7 0 1\n5= P8 0 1\n");
}

TEST(Knockout, SixteenPlayersReachNineEqual) {
  auto s =
      ComputeStandings(MakeEvent(FormatKind::kKnockout), Bracket(16).Build());
  ASSERT_TRUE(s.ok()) << s.status();
  std::vector<std::string> want = {
      "1", "2", "3=", "3=", "5=", "5=", "5=", "5="};
  want.insert(want.end(), 8, "9=");
  EXPECT_EQ(Labels(*s), want);
}

TEST(Knockout, ThirdPlacePlayoffSeparatesTheSemiFinalLosers) {
  ResultsBuilder b = Bracket(8);
  b.PlayoffWin(4, 3);
  auto s = ComputeStandings(MakeEvent(FormatKind::kKnockout), b.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->rows[2].name, "P4");
  EXPECT_EQ(s->rows[2].place_label, "3 (play-off)");
  EXPECT_EQ(s->rows[3].name, "P3");
  EXPECT_EQ(s->rows[3].place, 4);
}

TEST(Knockout, SharingForbiddenLeavesSemiFinalLosersPending) {
  Event event = MakeEvent(FormatKind::kKnockout);
  event.shared_places_allowed = false;
  auto s = ComputeStandings(event, Bracket(4).Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->status, StandingsStatus::kPendingPlayoff);
  EXPECT_EQ(Labels(*s),
            (std::vector<std::string>{"1", "2", "pending play-off (3-4)",
                                      "pending play-off (3-4)"}));
}

// Double elimination, 4 players: R1 1-2, 3-4; R2 1-3 (winners' final),
// 2-4 (4 out); R3 3-2 (2 out); R4 1-3 (3 out with its second loss).
TEST(Knockout, DoubleEliminationByOrderOfElimination) {
  ResultsBuilder b;
  b.Players(4)
      .Win(1, 1, 2)
      .Win(1, 3, 4)
      .Win(2, 1, 3)
      .Win(2, 2, 4)
      .Win(3, 3, 2)
      .Win(4, 1, 3);
  Event event = MakeEvent(FormatKind::kKnockout);
  event.format.lives = 2;
  auto s = ComputeStandings(event, b.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(testing::Summary(*s), "1 P1 3 0\n2 P3 2 4\n3 P2 1 3\n4 P4 0 2\n");
}

TEST(Knockout, UnfinishedIsPending) {
  ResultsBuilder b;
  b.Players(4).Win(1, 1, 4).Win(1, 2, 3);
  auto s = ComputeStandings(MakeEvent(FormatKind::kKnockout), b.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->status, StandingsStatus::kPendingResults);
  EXPECT_EQ(s->pending_reason, "2 entrants are still in the knockout");
}

TEST(Knockout, BestOfThreeTieGoesToTheMajority) {
  ResultsBuilder b;
  b.Players(2).Win(1, 2, 1).Win(1, 1, 2).Win(1, 1, 2);
  auto s = ComputeStandings(MakeEvent(FormatKind::kKnockout), b.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->rows[0].name, "P1");
}

// Relay: A = {1, 2, 3} against B = {4, 5, 6}. 1 beats 4 and 5, loses to 6;
// 6 beats 2; 3 beats 6: B's last player has left after game 5.
ResultsBuilder Relay(int games) {
  ResultsBuilder b;
  for (int p = 1; p <= 6; ++p)
    b.Player(p, "P" + std::to_string(p), p <= 3 ? 1 : 2);
  b.TeamOf(1, "A", {1, 2, 3}).TeamOf(2, "B", {4, 5, 6});
  const int winner[] = {1, 1, 6, 6, 3};
  const int loser[] = {4, 5, 1, 2, 6};
  for (int g = 0; g < games; ++g) b.Win(g + 1, winner[g], loser[g]);
  return b;
}

TEST(Relay, TeamsRankByOrderOfElimination) {
  auto s = ComputeStandings(MakeEvent(FormatKind::kRelay), Relay(5).Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(testing::Summary(*s), "1 A 3 0\n2 B 2 5\n");
  EXPECT_EQ(s->entrants_played, 2);
}

TEST(Relay, UnfinishedRelayIsPending) {
  auto s = ComputeStandings(MakeEvent(FormatKind::kRelay), Relay(3).Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->status, StandingsStatus::kPendingResults);
}

TEST(Relay, PlayerWhoLostCannotPlayAgain) {
  ResultsBuilder b = Relay(3);
  b.Win(4, 4, 2);  // 4 already lost in game 1
  auto s = ComputeStandings(MakeEvent(FormatKind::kRelay), b.Build());
  ASSERT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.status().message()).find("already lost and left"),
            std::string::npos);
}

struct MatchCase {
  const char* name;
  std::vector<int> winners;  // game by game
  StandingsStatus status;
  const char* want;
};

class BestOf : public ::testing::TestWithParam<MatchCase> {};

TEST_P(BestOf, DecidedByMajorityOrPending) {
  ResultsBuilder b;
  b.Players(2);
  int round = 1;
  for (int w : GetParam().winners) b.Win(round++, w, 3 - w);
  Event event = MakeEvent(FormatKind::kMatch);
  event.format.best_of = 5;
  auto s = ComputeStandings(event, b.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->status, GetParam().status);
  EXPECT_EQ(testing::Summary(*s), GetParam().want);
}

INSTANTIATE_TEST_SUITE_P(
    Spec, BestOf,
    ::testing::Values(MatchCase{"ThreeStraight",
                                {2, 2, 2},
                                StandingsStatus::kFinal,
                                "1 P2 6\n2 P1 0\n"},
                      MatchCase{"FullDistance",
                                {1, 2, 2, 1, 1},
                                StandingsStatus::kFinal,
                                "1 P1 6\n2 P2 4\n"},
                      MatchCase{"NotYetDecided",
                                {1, 2, 1},
                                StandingsStatus::kPendingResults,
                                ""}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace gorank::tournaments
