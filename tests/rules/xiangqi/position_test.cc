// The piece rules one by one (legality.h names the rule a move breaks), FEN
// reading and writing, and the position's invariants under make/unmake.
#include "services/rules/xiangqi/position.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/rules/xiangqi/legality.h"

namespace gorank::rules::xiangqi {
namespace {

Square Sq(const std::string& s) { return MakeSquare(s[0] - 'a', s[1] - '0'); }

struct RuleCase {
  const char* what;
  const char* fen;  // nullptr: the start position
  const char* move;
  Rule rule;
};

TEST(XiangqiRulesTest, EveryPieceRule) {
  const std::vector<RuleCase> cases = {
      {"cannon to the centre", nullptr, "h2e2", Rule::kNone},
      {"empty from point", nullptr, "a1a2", Rule::kNoPiece},
      {"black's chariot on red's turn", nullptr, "a9a8", Rule::kOpponentPiece},
      {"onto its own horse", nullptr, "a0b0", Rule::kOwnPieceOnTarget},
      {"general one step", nullptr, "e0e1", Rule::kNone},
      {"general two steps", nullptr, "e0e2", Rule::kGeneralStep},
      {"general out of the palace", "4k4/9/9/9/9/9/9/9/9/3K5 w", "d0c0",
       Rule::kGeneralPalace},
      {"general onto the open file", "4k4/9/9/9/9/9/9/9/9/3K5 w", "d0e0",
       Rule::kFlyingGeneral},
      {"general up the palace", "4k4/9/9/9/9/9/9/9/9/3K5 w", "d0d1",
       Rule::kNone},
      {"advisor straight", nullptr, "d0d1", Rule::kAdvisorStep},
      {"advisor out of the palace", nullptr, "d0c1", Rule::kAdvisorPalace},
      {"advisor to the centre", nullptr, "d0e1", Rule::kNone},
      {"elephant two diagonally", nullptr, "c0e2", Rule::kNone},
      {"elephant straight", nullptr, "c0c2", Rule::kElephantStep},
      {"elephant over the river", "4k4/9/9/9/9/2B6/9/9/9/3K5 w", "c4e6",
       Rule::kElephantRiver},
      {"elephant eye blocked", "4k4/9/9/9/9/9/9/9/3N5/2BK5 w", "c0e2",
       Rule::kElephantEye},
      {"horse jump", nullptr, "b0c2", Rule::kNone},
      {"horse leg blocked", nullptr, "b0d1", Rule::kHorseLeg},
      {"horse diagonal", nullptr, "b0c1", Rule::kHorseStep},
      {"chariot up", nullptr, "a0a2", Rule::kNone},
      {"chariot through a soldier", nullptr, "a0a4", Rule::kChariotBlocked},
      {"chariot diagonal", nullptr, "a0b1", Rule::kChariotLine},
      {"cannon over one screen", nullptr, "b2b9", Rule::kNone},
      {"cannon capture without a screen", nullptr, "b2b7", Rule::kCannonScreen},
      {"cannon move through a piece", nullptr, "b2b8", Rule::kCannonBlocked},
      {"cannon diagonal", nullptr, "b2c4", Rule::kCannonLine},
      {"cannon capture over two screens", "3k5/9/4r4/9/4p4/9/4P4/4C4/9/4K4 w",
       "e2e7", Rule::kCannonScreen},
      {"soldier forward", nullptr, "e3e4", Rule::kNone},
      {"soldier sideways before the river", nullptr, "e3d3",
       Rule::kSoldierSideways},
      {"soldier two steps", nullptr, "e3e5", Rule::kSoldierStep},
      {"crossed soldier backward", "3k5/9/9/9/4P4/9/9/9/9/4K4 w", "e5e4",
       Rule::kSoldierBackward},
      {"crossed soldier sideways", "3k5/9/9/9/4P4/9/9/9/9/4K4 w", "e5d5",
       Rule::kNone},
      {"black soldier forward is down", "3k5/9/9/4p4/9/9/9/9/9/4K4 b", "e6e5",
       Rule::kNone},
      {"black soldier up", "3k5/9/9/4p4/9/9/9/9/9/4K4 b", "e6e7",
       Rule::kSoldierBackward},
      {"general into a chariot's line", "5k3/9/9/9/9/9/9/9/4r4/3K5 w", "d0e0",
       Rule::kSelfCheck},
      {"pinned chariot", "4k4/9/9/9/9/9/9/4r4/4R4/4K4 w", "e1d1",
       Rule::kSelfCheck},
      {"pinned chariot along its line", "4k4/9/9/9/9/9/9/4r4/4R4/4K4 w", "e1e2",
       Rule::kNone},
      {"last piece between the generals", "4k4/9/9/9/9/9/9/9/4A4/4K4 w", "e1d2",
       Rule::kFlyingGeneral},
      {"a screen for the enemy cannon", "5k3/9/9/9/3c5/9/9/9/9/2NK5 w", "c0d2",
       Rule::kSelfCheck},
  };
  for (const RuleCase& c : cases) {
    absl::StatusOr<Position> p =
        c.fen ? Position::FromFen(c.fen)
              : absl::StatusOr<Position>(Position::Start());
    ASSERT_TRUE(p.ok()) << c.what << ": " << p.status();
    const Square from = Sq(std::string(c.move).substr(0, 2));
    const Square to = Sq(std::string(c.move).substr(2, 2));
    EXPECT_EQ(WhyIllegal(*p, from, to), c.rule)
        << c.what << " (" << c.move
        << "): " << RuleName(WhyIllegal(*p, from, to));
    EXPECT_EQ(p->IsLegal(EncodeMove(from, to)), c.rule == Rule::kNone)
        << c.what;
  }
}

TEST(XiangqiRulesTest, EveryLegalMoveHasNoRuleAndEveryOtherHasOne) {
  // Over a seeded random game: the generator and WhyIllegal agree on every
  // from-to pair of the board.
  std::mt19937 rng(7);
  Position p = Position::Start();
  for (int ply = 0; ply < 60; ++ply) {
    MoveList legal;
    p.GenerateLegal(&legal);
    if (legal.size == 0) break;
    std::vector<bool> is_legal(1 << 16);
    for (Move m : legal) is_legal[m] = true;
    for (int f1 = 0; f1 < 9; ++f1)
      for (int r1 = 0; r1 < 10; ++r1)
        for (int f2 = 0; f2 < 9; ++f2)
          for (int r2 = 0; r2 < 10; ++r2) {
            const Square a = MakeSquare(f1, r1), b = MakeSquare(f2, r2);
            if (a == b) continue;
            ASSERT_EQ(WhyIllegal(p, a, b) == Rule::kNone,
                      is_legal[EncodeMove(a, b)])
                << p.ToFen() << " " << MoveToIccs(EncodeMove(a, b));
          }
    p.MakeMove(legal.moves[rng() % legal.size]);
  }
}

TEST(XiangqiPositionTest, MakeUnmakeRestoresEverything) {
  std::mt19937 rng(11);
  Position p = Position::Start();
  for (int ply = 0; ply < 200; ++ply) {
    MoveList legal;
    p.GenerateLegal(&legal);
    if (legal.size == 0) break;
    for (Move m : legal) {
      const std::string fen = p.ToFen();
      const uint64_t hash = p.hash();
      const Undo u = p.MakeMove(m);
      EXPECT_NE(p.hash(), hash);
      EXPECT_FALSE(
          p.Attacked(p.general(Opponent(p.side_to_move())), p.side_to_move()));
      p.UnmakeMove(m, u);
      ASSERT_EQ(p.ToFen(), fen);
      ASSERT_EQ(p.hash(), hash);
    }
    p.MakeMove(legal.moves[rng() % legal.size]);
    // The hash is a function of the position alone.
    ASSERT_EQ(Position::FromFen(p.ToFen())->hash(), p.hash());
  }
}

TEST(XiangqiPositionTest, FenRoundTripAndStart) {
  EXPECT_EQ(Position::Start().ToFen(), kStartFen);
  EXPECT_EQ(Position::Start().side_to_move(), Side::kRed);
  absl::StatusOr<Position> b = Position::FromFen(
      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->side_to_move(), Side::kBlack);
  EXPECT_NE(b->hash(), Position::Start().hash());
  // E and H are read as B and N.
  EXPECT_EQ(Position::FromFen(
                "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w")
                ->ToFen(),
            kStartFen);
}

TEST(XiangqiPositionTest, FenErrorsNameTheProblem) {
  const std::vector<std::pair<const char*, const char*>> bad = {
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w", "10 ranks"},
      {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
       "more than 9"},
      {"3k5/9/9/9/9/9/9/9/9/2K6 w", "outside its palace"},
      {"3k5/9/9/9/9/9/9/9/9/9 w", "one general"},
      {"4k4/9/9/9/9/9/9/9/9/4K4 w", "face each other"},
      {"3k5/9/9/9/9/9/9/9/9/3KA4 w", "palace diagonal"},
      {"3k5/9/9/9/9/9/9/9/9/3K1B3 w", "7 points"},
      {"3k5/9/9/9/9/9/9/4P4/9/4K4 w", "soldier cannot"},
      {"3k5/9/9/9/9/9/9/9/9/3KX4 w", "not a piece letter"},
      {"3k5/9/9/9/9/9/9/9/3R5/4K4 w", "in check with red to move"},
      {"3k5/9/9/9/9/9/9/9/9/4K4 x", "side to move"},
      {"3k5/RRR6/9/9/9/9/9/9/9/4K4 w", "more chariots"},
  };
  for (const auto& [fen, why] : bad) {
    absl::StatusOr<Position> p = Position::FromFen(fen);
    ASSERT_FALSE(p.ok()) << fen;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(p.status().message().find(why), std::string::npos) << p.status();
  }
}

TEST(XiangqiPositionTest, CheckAndAttacks) {
  absl::StatusOr<Position> p =
      Position::FromFen("4k4/4a4/9/9/9/9/9/4C4/9/3K5 b");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->InCheck());  // the cannon over the advisor
  EXPECT_EQ(p->CountLegal(), 5);
  absl::StatusOr<Position> mate =
      Position::FromFen("3k5/9/3R5/9/9/9/9/9/9/4K4 b");
  ASSERT_TRUE(mate.ok());
  EXPECT_TRUE(mate->InCheck());
  EXPECT_FALSE(mate->HasLegalMove());
  absl::StatusOr<Position> stalemate =
      Position::FromFen("3k5/4P4/9/9/9/9/9/9/9/4K4 b");
  ASSERT_TRUE(stalemate.ok());
  EXPECT_FALSE(stalemate->InCheck());
  EXPECT_FALSE(stalemate->HasLegalMove());
}

}  // namespace
}  // namespace gorank::rules::xiangqi
