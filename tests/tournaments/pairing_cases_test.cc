// Hand cases of the pairing engine (pairing.h, issue #20), each with the
// rule or published example it follows, and the errors of pairing.h.
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/registry/rank.h"
#include "services/tournaments/pairing.h"

namespace gorank::tournaments {
namespace {

using registry::Rank;
using ::testing::HasSubstr;

class Cases {
 public:
  explicit Cases(int rounds = 5) {
    event_.name = "hand case";
    event_.format.kind = FormatKind::kSwiss;
    event_.format.rounds = rounds;
    event_.pairing.seed = 42;
  }
  // Entrant `id` with `rank` ("" for none) and club.
  Cases& Player(int id, const std::string& rank, const std::string& club = "") {
    Entrant e;
    e.id = EntrantId{id};
    e.family_name = "P" + std::to_string(id);
    if (!rank.empty()) e.rank = Rank::FromString(rank);
    e.club = club;
    results_.entrants.push_back(e);
    return *this;
  }
  // A game of `round`: white, black, and who won ('w', 'b', '=').
  Cases& Game(int round, int white, int black, char won, int handicap = 0) {
    gorank::tournaments::Game g;
    g.round = round;
    g.white = EntrantId{white};
    g.black = EntrantId{black};
    g.handicap = handicap;
    g.outcome = won == 'w'   ? Outcome::kWhiteWins
                : won == 'b' ? Outcome::kBlackWins
                             : Outcome::kDraw;
    results_.games.push_back(g);
    return *this;
  }
  Cases& GiveBye(int round, int id, int points = 2) {
    results_.byes.push_back(Bye{round, EntrantId{id}, std::nullopt, points});
    return *this;
  }
  Event& event() { return event_; }
  EventResults& results() { return results_; }

  absl::StatusOr<RoundPairing> Pair(int round,
                                    const PairingAdjustments& adj = {}) {
    return PairRound(event_, results_, round, adj);
  }

 private:
  Event event_;
  EventResults results_;
};

// "w-b" per board (handicap as "/hN"), then "bye:N" per bye.
std::string Boards(const RoundPairing& p) {
  std::string s;
  for (const PairedBoard& b : p.boards) {
    if (!s.empty()) s += " ";
    s += std::to_string(b.white.value) + "-" + std::to_string(b.black.value);
    if (b.handicap > 0) s += "/h" + std::to_string(b.handicap);
  }
  for (const Bye& b : p.byes) {
    s += " bye:" + std::to_string(b.entrant.value);
    if (b.points != 2) s += "/" + std::to_string(b.points);
  }
  return s;
}

// Unordered pairs "a-b" with a < b, for cases where colours are by lot.
std::string Pairs(const RoundPairing& p) {
  std::vector<std::string> out;
  for (const PairedBoard& b : p.boards) {
    const int lo = std::min(b.white.value, b.black.value);
    const int hi = std::max(b.white.value, b.black.value);
    out.push_back(std::to_string(lo) + "-" + std::to_string(hi));
  }
  std::string s;
  for (const std::string& x : out) s += (s.empty() ? "" : " ") + x;
  return s;
}

// Round 1 by rank, top half against bottom half ("split and slip": 1 v 5,
// 2 v 6, ...): FIDE Dutch system (Handbook C.04.3, A.6/B: S1 against S2 in
// rank order) and OpenGotha's default intra-group pairing, "split and
// slip" (OpenGotha help, Pairing parameters).
TEST(PairingCases, FirstRoundTopHalfAgainstBottomHalf) {
  Cases c;
  const char* ranks[] = {"5d", "4d", "3d", "2d", "1d", "1k", "2k", "3k"};
  for (int i = 1; i <= 8; ++i) c.Player(i, ranks[i - 1]);
  absl::StatusOr<RoundPairing> p = c.Pair(1);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(Pairs(*p), "1-5 2-6 3-7 4-8");
  EXPECT_TRUE(p->byes.empty());
  for (const PairedBoard& b : p->boards) EXPECT_EQ(b.komi_x2, 15);
}

// An odd field: the bye goes to the lowest-placed player (SPEC section 4,
// 2 points; OpenGotha chooses the bye player by lowest rank and score,
// Tournament.chooseAByePlayer).
TEST(PairingCases, OddFieldByeToTheLowest) {
  Cases c;
  const char* ranks[] = {"3d", "2d", "1d", "1k", "5k"};
  for (int i = 1; i <= 5; ++i) c.Player(i, ranks[i - 1]);
  absl::StatusOr<RoundPairing> p = c.Pair(1);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(Pairs(*p), "1-3 2-4");
  ASSERT_EQ(p->byes.size(), 1u);
  EXPECT_EQ(p->byes[0].entrant.value, 5);
  EXPECT_EQ(p->byes[0].points, 2);
  EXPECT_THAT(p->decisions, ::testing::Contains(HasSubstr("bye: P5 (#5)")));
}

// Round 2 pairs inside the score groups (积分编排制: players of equal points
// meet): after 1-5, 2-6, 3-7, 4-8 won by the stronger, winners 1-3, 2-4 and
// losers 5-7, 6-8 (split and slip in each group), each taking the colour
// it did not have.
TEST(PairingCases, SecondRoundInsideScoreGroups) {
  Cases c;
  const char* ranks[] = {"5d", "4d", "3d", "2d", "1d", "1k", "2k", "3k"};
  for (int i = 1; i <= 8; ++i) c.Player(i, ranks[i - 1]);
  c.Game(1, 1, 5, 'w').Game(1, 2, 6, 'w').Game(1, 7, 3, 'b').Game(1, 8, 4, 'b');
  absl::StatusOr<RoundPairing> p = c.Pair(2);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(Boards(*p), "3-1 4-2 5-7 6-8");
}

// Colour preferences come before the order inside a group, as in the FIDE
// Dutch system (C.04.3, criterion C.12 "minimise the colour preference
// violations" before the S1-S2 order): winners 1 and 3 both had white,
// 2 and 4 black, so 1-4 and 2-3 instead of 1-3 and 2-4.
TEST(PairingCases, ColourPreferenceBeforeOrderInGroup) {
  Cases c;
  const char* ranks[] = {"5d", "4d", "3d", "2d", "1d", "1k", "2k", "3k"};
  for (int i = 1; i <= 8; ++i) c.Player(i, ranks[i - 1]);
  c.Game(1, 1, 5, 'w').Game(1, 6, 2, 'b').Game(1, 3, 7, 'w').Game(1, 8, 4, 'b');
  absl::StatusOr<RoundPairing> p = c.Pair(2);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->boards.size(), 4u);
  EXPECT_EQ(Boards(*p).substr(0, 7), "4-1 2-3");
}

// One score group that cannot be paired inside (1 and 2 have met): the
// float is the smallest one, and the decision says so.
TEST(PairingCases, FloatWhenTheGroupCannotBePaired) {
  Cases c(3);
  for (int i = 1; i <= 6; ++i) c.Player(i, "1d");
  // Round 1: 1 beats 4, 2 beats 5, 3 beats 6 -> {1,2,3} on 2 points.
  c.Game(1, 1, 4, 'w').Game(1, 2, 5, 'w').Game(1, 3, 6, 'w');
  // Round 2: 1 beats 2; 3 beats 4; 6 beats 5 -> 1 and 3 on 4, 2 and 6 on 2.
  c.Game(2, 2, 1, 'b').Game(2, 4, 3, 'b').Game(2, 5, 6, 'b');
  absl::StatusOr<RoundPairing> p = c.Pair(3);
  ASSERT_TRUE(p.ok()) << p.status();
  // 1-3 (both on 4), 2-6 (both on 2), 4-5 (both on 0): no float needed.
  EXPECT_EQ(Pairs(*p), "1-3 2-6 4-5");
}

// A player two colours ahead gets the other colour (no three whites in a
// row, nobody more than 2 colours ahead: issue #20, as OpenGotha's colour
// balance and FIDE C.04.1 f).
TEST(PairingCases, ColourLimits) {
  Cases c(5);
  for (int i = 1; i <= 4; ++i) c.Player(i, "1d");
  c.Game(1, 1, 2, 'w').Game(1, 3, 4, 'w');  // 1, 3 white
  c.Game(2, 1, 4, 'w').Game(2, 3, 2, 'w');  // 1, 3 white again
  absl::StatusOr<RoundPairing> p = c.Pair(3);
  ASSERT_TRUE(p.ok()) << p.status();
  // 1 and 3 (4 points, two whites) cannot meet: one of them would take a
  // third white. 1-2 and 3-4 have met; 1-4 and 3-2 have met. So the only
  // pairing left, 1-3, has to break the limit.
  EXPECT_EQ(Pairs(*p), "1-3 2-4");
}

// McMahon (EGF): everyone at or above the bar starts equal. Bar 3d: 5d, 4d
// and 3d all start on 3d's score, so round 1 pairs inside that top group
// (and the next group, 2d and 1d, together).
TEST(PairingCases, McMahonBarTopGroup) {
  Cases c;
  c.event().pairing.system = PairingSystem::kMcMahon;
  c.event().pairing.mcmahon_bar = Rank::FromString("3d");
  const char* ranks[] = {"5d", "4d", "3d", "3d", "2d", "2d", "1d", "1d"};
  for (int i = 1; i <= 8; ++i) c.Player(i, ranks[i - 1]);
  absl::StatusOr<RoundPairing> p = c.Pair(1);
  ASSERT_TRUE(p.ok()) << p.status();
  // Top group {1,2,3,4} (3d start), 2d group {5,6}, 1d group {7,8}.
  EXPECT_EQ(Pairs(*p), "1-3 2-4 5-6 7-8");
}

// McMahon handicap: rank difference minus the reduction, capped (EGF
// handicap "rank difference - N"; OpenGotha HandicapParameterSet
// hdCorrection and hdCeiling); the weaker takes black; komi 0.5.
TEST(PairingCases, McMahonHandicapFromRankDifference) {
  Cases c;
  c.event().pairing.system = PairingSystem::kMcMahon;
  c.event().pairing.max_handicap = 3;
  c.event().rules.handicap_policy = HandicapPolicy::kRankDifference;
  c.event().rules.handicap_reduction = 1;
  c.event().pairing.mcmahon_bar = Rank::FromString("9k");
  // Bar 9k: everyone starts equal, so round 1 pairs by rank (slip).
  c.Player(1, "3d").Player(2, "1d").Player(3, "5k").Player(4, "9k");
  absl::StatusOr<RoundPairing> p = c.Pair(1);
  ASSERT_TRUE(p.ok()) << p.status();
  // 3d-5k: 7 stones difference - 1 = 6, capped at 3. 1d-9k: 9 - 1 = 8 -> 3.
  EXPECT_EQ(Boards(*p), "1-3/h3 2-4/h3");
  for (const PairedBoard& b : p->boards) EXPECT_EQ(b.komi_x2, 1);
}

// McMahon score = start + wins (EGF McMahon system; OpenGotha MMS): bar 3d,
// so 4d and 3d start on 32, the 2d players on 31. After 1 beats 2 and 3
// beats 4, 2 and 3 are level on 32 with 1 above (33) and 4 below (31).
// Two one-step floats (1-3, 2-4) are smaller than one two-step float
// (1-4, with 2-3): OpenGotha's main criterion "minimize score difference"
// and the Dutch rule that a downfloater goes to the next group.
TEST(PairingCases, McMahonScoreFloatsOneGroupAtATime) {
  Cases c;
  c.event().pairing.system = PairingSystem::kMcMahon;
  c.event().pairing.mcmahon_bar = Rank::FromString("3d");
  c.Player(1, "4d").Player(2, "3d").Player(3, "2d").Player(4, "2d");
  absl::StatusOr<RoundPairing> r1 = c.Pair(1);
  ASSERT_TRUE(r1.ok()) << r1.status();
  EXPECT_EQ(Pairs(*r1), "1-2 3-4");
  c.Game(1, 1, 2, 'w').Game(1, 3, 4, 'w');
  absl::StatusOr<RoundPairing> p = c.Pair(2);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(Pairs(*p), "1-3 2-4");
  EXPECT_THAT(p->decisions,
              ::testing::Contains(
                  HasSubstr("P1 (#1) (MMS 33) floated to P3 (#3) (MMS 32)")));
}

// The bye (SPEC section 4: 2 points) goes to the lowest-placed player who
// has not had one: 5 had it in round 1, so in round 2 it goes to 4 (0
// points, ranked below 3).
TEST(PairingCases, ByeToTheLowestWithoutOne) {
  Cases c;
  const char* ranks[] = {"3d", "2d", "1d", "1k", "5k"};
  for (int i = 1; i <= 5; ++i) c.Player(i, ranks[i - 1]);
  c.Game(1, 1, 3, 'w').Game(1, 2, 4, 'w').GiveBye(1, 5);
  absl::StatusOr<RoundPairing> p = c.Pair(2);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->byes.size(), 1u);
  EXPECT_EQ(p->byes[0].entrant.value, 4);
  EXPECT_EQ(p->byes[0].points, 2);
}

TEST(PairingCases, SameSeedSamePairingOtherSeedMayDiffer) {
  Cases c;
  c.event().pairing.first_round_by_lot = true;
  for (int i = 1; i <= 20; ++i) c.Player(i, "1d");
  absl::StatusOr<RoundPairing> a = c.Pair(1);
  absl::StatusOr<RoundPairing> b = c.Pair(1);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(Boards(*a), Boards(*b));
  EXPECT_EQ(a->seed, 42u);
  c.event().pairing.seed = 43;
  absl::StatusOr<RoundPairing> other = c.Pair(1);
  ASSERT_TRUE(other.ok());
  EXPECT_NE(Boards(*a), Boards(*other));
}

TEST(PairingCases, AdjustmentsForcedPairByeAbsentSwap) {
  Cases c;
  const char* ranks[] = {"5d", "4d", "3d", "2d", "1d", "1k", "2k", "3k"};
  for (int i = 1; i <= 8; ++i) c.Player(i, ranks[i - 1]);
  PairingAdjustments adj;
  adj.forced_pairs = {{EntrantId{1}, EntrantId{2}}};
  adj.byes = {EntrantId{8}};
  adj.absent = {EntrantId{7}};
  absl::StatusOr<RoundPairing> p = c.Pair(1, adj);
  ASSERT_TRUE(p.ok()) << p.status();
  // 3..6 left: 3-5, 4-6 (slip); 1-2 first board.
  EXPECT_EQ(Pairs(*p), "1-2 3-5 4-6");
  EXPECT_THAT(Boards(*p), HasSubstr("bye:7/0 bye:8"));
  adj.swap_boards = {2};
  absl::StatusOr<RoundPairing> s = c.Pair(1, adj);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->boards[1].white, p->boards[1].black);
  EXPECT_EQ(s->boards[1].black, p->boards[1].white);
  EXPECT_THAT(s->decisions,
              ::testing::Contains(HasSubstr("board 2: colours swapped")));
}

TEST(PairingCases, Errors) {
  Cases c;
  for (int i = 1; i <= 4; ++i) c.Player(i, "1d");
  c.results().entrants[3].withdrawn_after_round = 0;
  auto code = [&](int round, PairingAdjustments adj) {
    return c.Pair(round, adj).status().code();
  };
  using absl::StatusCode;
  EXPECT_EQ(code(0, {}), StatusCode::kFailedPrecondition);
  EXPECT_EQ(code(6, {}), StatusCode::kFailedPrecondition);
  PairingAdjustments unknown;
  unknown.byes = {EntrantId{9}};
  EXPECT_EQ(code(1, unknown), StatusCode::kInvalidArgument);
  PairingAdjustments withdrawn;
  withdrawn.absent = {EntrantId{4}};
  EXPECT_EQ(code(1, withdrawn), StatusCode::kInvalidArgument);
  PairingAdjustments twice;
  twice.forced_pairs = {{EntrantId{1}, EntrantId{2}}};
  twice.absent = {EntrantId{1}};
  EXPECT_EQ(code(1, twice), StatusCode::kInvalidArgument);
  PairingAdjustments no_board;
  no_board.swap_boards = {3};
  EXPECT_EQ(code(1, no_board), StatusCode::kInvalidArgument);
  // Round 2 before round 1 is complete.
  EXPECT_EQ(code(2, {}), StatusCode::kFailedPrecondition);
  c.Game(1, 1, 2, 'w');
  c.GiveBye(1, 3);
  PairingAdjustments rematch;
  rematch.forced_pairs = {{EntrantId{2}, EntrantId{1}}};
  EXPECT_EQ(code(2, rematch), StatusCode::kInvalidArgument);
  PairingAdjustments second_bye;
  second_bye.byes = {EntrantId{3}};
  EXPECT_EQ(code(2, second_bye), StatusCode::kInvalidArgument);
  // An unknown result blocks the next round.
  c.Game(2, 1, 3, 'w');
  c.results().games.back().outcome = Outcome::kUnknown;
  c.GiveBye(2, 2);
  EXPECT_EQ(code(3, {}), StatusCode::kFailedPrecondition);
  // Not a Swiss event.
  c.event().format.kind = FormatKind::kRoundRobin;
  EXPECT_EQ(code(1, {}), StatusCode::kFailedPrecondition);
}

TEST(PairingCases, NoPairingWithoutRematch) {
  Cases c;
  for (int i = 1; i <= 2; ++i) c.Player(i, "1d");
  c.Game(1, 1, 2, 'w');
  absl::StatusOr<RoundPairing> p = c.Pair(2);
  EXPECT_EQ(p.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(p.status().message(), HasSubstr("without a rematch"));
}

}  // namespace
}  // namespace gorank::tournaments
