// Team standings, SPEC section 4: board points 2/1/0, match points by
// comparing board points; round robin: match points, board points, board 1,
// board 2; team Swiss: total MP + SOS/R - R first. Criteria columns (round
// robin): match points, board points, board 1, board 2; (Swiss): match
// points, SOS, total, board points, board 1, board 2.
#include <string>

#include "gtest/gtest.h"
#include "services/tournaments/standings.h"
#include "tests/tournaments/results_builder.h"

namespace gorank::tournaments {
namespace {

using testing::MakeEvent;
using testing::ResultsBuilder;
using testing::Summary;

// Four teams of two: T1 = {1, 2}, T2 = {3, 4}, T3 = {5, 6}, T4 = {7, 8}.
ResultsBuilder Teams() {
  ResultsBuilder b;
  for (int p = 1; p <= 8; ++p)
    b.Player(p, "P" + std::to_string(p), (p + 1) / 2);
  b.TeamOf(1, "T1", {1, 2})
      .TeamOf(2, "T2", {3, 4})
      .TeamOf(3, "T3", {5, 6})
      .TeamOf(4, "T4", {7, 8});
  return b;
}

// R1: T1-T2 2-2 (1 beats 3, 4 beats 2); T3-T4 4-0.
// R2: T1-T3 4-0; T2-T4 4-0.
// R3: T1-T4 2-2 (board 1 and board 2 as given); T2-T3 2-2 (3 beats 5,
//     6 beats 4).
ResultsBuilder RoundRobin(bool t1_wins_board1_in_r3) {
  ResultsBuilder b = Teams();
  b.Win(1, 1, 3, 1)
      .Win(1, 4, 2, 2)
      .Win(1, 5, 7, 1)
      .Win(1, 6, 8, 2)
      .Win(2, 1, 5, 1)
      .Win(2, 2, 6, 2)
      .Win(2, 3, 7, 1)
      .Win(2, 4, 8, 2)
      .Win(3, 3, 5, 1)
      .Win(3, 6, 4, 2);
  if (t1_wins_board1_in_r3) {
    b.Win(3, 1, 7, 1).Win(3, 8, 2, 2);
  } else {
    b.Win(3, 7, 1, 1).Win(3, 2, 8, 2);
  }
  return b;
}

struct Case {
  const char* name;
  FormatKind kind;
  int rounds;
  ResultsBuilder results;
  const char* want;
};

class TeamEvent : public ::testing::TestWithParam<Case> {};

TEST_P(TeamEvent, PlacesAndCriteria) {
  const Event event = MakeEvent(GetParam().kind, GetParam().rounds, 2);
  auto s = ComputeStandings(event, GetParam().results.Build());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_TRUE(s->teams);
  EXPECT_EQ(Summary(*s), GetParam().want);
}

INSTANTIATE_TEST_SUITE_P(
    Spec, TeamEvent,
    ::testing::Values(
        // T1 and T2: 4 MP, 8 BP; board 1: T1 2+2+2 = 6, T2 0+2+2 = 4.
        Case{"BoardOneDecides", FormatKind::kTeamRoundRobin, 0,
             RoundRobin(true),
             "1 T1 4 8 6 2\n2 T2 4 8 4 4\n3 T3 3 6 2 4\n4 T4 1 2 0 2\n"},
        // T1's board 1 now 2+2+0 = 4 and board 2 0+2+2 = 4: fully equal.
        Case{"FullyEqualTeamsShare", FormatKind::kTeamRoundRobin, 0,
             RoundRobin(false),
             "1= T1 4 8 4 4\n1= T2 4 8 4 4\n3 T3 3 6 2 4\n4 T4 1 2 2 0\n"},
        // T4 withdraws after R1: its R2 match with T2 and R3 match with
        // T1 are lost 2-0 on both boards and those board points count.
        // T1: 1+2+2 MP, 2+4+4 BP, b1 2+2+2, b2 0+2+2.
        // T2: 1+2+1 MP, 2+4+2 BP, b1 0+2+2, b2 2+2+0.
        // T3: 2+0+1 MP, 4+0+2 BP, b1 2+0+0, b2 2+0+2.
        Case{"WithdrawnTeamLosesTheRest", FormatKind::kTeamRoundRobin, 0,
             Teams()
                 .Win(1, 1, 3, 1)
                 .Win(1, 4, 2, 2)
                 .Win(1, 5, 7, 1)
                 .Win(1, 6, 8, 2)
                 .Win(2, 1, 5, 1)
                 .Win(2, 2, 6, 2)
                 .Win(3, 3, 5, 1)
                 .Win(3, 6, 4, 2)
                 .WithdrawTeam(4, 1),
             "1 T1 5 10 6 4\n2 T2 4 8 4 4\n3 T3 3 6 2 4\n4 T4 0 0 0 0\n"},
        // Team Swiss, R = 2, three teams: R1 T1-T2 4-0, T3 bye (2 MP, 2
        // board points a board); R2 T1-T3 2-2 (board 1 to T1), T2 bye.
        // MP: T1 3, T2 2, T3 3. SOS: T1 = 2 + 3, T2 = 3 + bye 2,
        // T3 = bye 2 + 3. K = 2 MP + SOS - 4: T1 7, T2 5, T3 7.
        // T1 and T3 tie on the total (3.5) and board points (6); board 1:
        // T1 2+2 = 4, T3 2+0 = 2.
        Case{"SwissTotalThenBoards", FormatKind::kTeamSwiss, 2,
             ResultsBuilder()
                 .Player(1, "P1", 1)
                 .Player(2, "P2", 1)
                 .Player(3, "P3", 2)
                 .Player(4, "P4", 2)
                 .Player(5, "P5", 3)
                 .Player(6, "P6", 3)
                 .TeamOf(1, "T1", {1, 2})
                 .TeamOf(2, "T2", {3, 4})
                 .TeamOf(3, "T3", {5, 6})
                 .Win(1, 1, 3, 1)
                 .Win(1, 2, 4, 2)
                 .TeamBye(1, 3)
                 .Win(2, 1, 5, 1)
                 .Win(2, 6, 2, 2)
                 .TeamBye(2, 2),
             "1 T1 3 5 3.5 6 4 2\n2 T3 3 5 3.5 6 2 4\n3 T2 2 5 2.5 4 2 2\n"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(TeamEvent, GameWithoutBoardIsRefused) {
  ResultsBuilder b = Teams();
  b.Win(1, 1, 3);  // board 0
  auto s =
      ComputeStandings(MakeEvent(FormatKind::kTeamRoundRobin, 0, 2), b.Build());
  ASSERT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.status().message()).find("board must be 1..2"),
            std::string::npos);
}

TEST(TeamEvent, EntrantsPlayedCountsTeams) {
  auto s = ComputeStandings(MakeEvent(FormatKind::kTeamRoundRobin, 0, 2),
                            RoundRobin(true).Build());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->entrants_played, 4);
}

}  // namespace
}  // namespace gorank::tournaments
