#include "services/rules/gomoku/checker.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/rules/gomoku/diagram.h"

namespace gorank::rules::gomoku {
namespace {

using ::gorank::rules::gomoku::testing::ReadDiagram;

struct ExpectedViolation {
  int move_number;
  ViolationKind kind;
  friend bool operator==(const ExpectedViolation&,
                         const ExpectedViolation&) = default;
};

std::vector<ExpectedViolation> Violations(const CheckReport& report) {
  std::vector<ExpectedViolation> out;
  for (const Violation& v : report.violations)
    out.push_back({v.move_number, v.kind});
  return out;
}

std::string Points(const std::vector<Point>& points) {
  std::string out;
  for (const Point& p : points) out += (out.empty() ? "" : " ") + p.ToString();
  return out;
}

// Table of move lists: violations (with move numbers) and outcome.
struct MoveListCase {
  const char* name;
  const char* moves;
  CheckOptions options;
  std::vector<ExpectedViolation> violations;
  Winner winner;
  EndReason reason;
  int decided_at_move;
  const char* five;  // the winning line, "" when none
};

const std::vector<MoveListCase>& MoveListCases() {
  static const auto* cases = new std::vector<MoveListCase>{
      {"MovesAfterFive",
       "H8 A1 H9 A2 H10 A3 H11 A4 H12 B1 C1",
       {},
       {{10, ViolationKind::kAfterGameEnd}, {11, ViolationKind::kAfterGameEnd}},
       Winner::kBlack,
       EndReason::kFive,
       9,
       "H8 H9 H10 H11 H12"},
      {"FirstMoveOffCenter",
       "A1 H8 B1 H9",
       {},
       {{1, ViolationKind::kFirstMoveNotCenter}},
       Winner::kNone,
       EndReason::kUnfinished,
       0,
       ""},
      {"FirstMoveAnywhereInFreestyle",
       "A1 H8 B1 H9",
       {Ruleset::kFreestyle, {}},
       {},
       Winner::kNone,
       EndReason::kUnfinished,
       0,
       ""},
      {"OccupiedPoint",
       "H8 I9 H8 J10",
       {},
       {{3, ViolationKind::kOccupied}},
       Winner::kNone,
       EndReason::kUnfinished,
       0,
       ""},
      // White's six A1-A6 wins: white has no forbidden moves.
      {"WhiteOverlineWins",
       "H8 A1 L3 A2 C12 A3 M13 A5 E2 A6 O8 A4",
       {},
       {},
       Winner::kWhite,
       EndReason::kFive,
       12,
       "A1 A2 A3 A4 A5 A6"},
      // Black's six D8-I8 is forbidden, not a win; nobody claimed it.
      {"BlackOverlineUnclaimed",
       "H8 A1 D8 A3 E8 A5 F8 A7 I8 A9 G8",
       {},
       {},
       Winner::kNone,
       EndReason::kUnfinished,
       0,
       ""},
      {"BlackOverlineClaimedAtOnce",
       "H8 A1 D8 A3 E8 A5 F8 A7 I8 A9 G8",
       {Ruleset::kFormal, ClaimPolicy::kImmediate},
       {},
       Winner::kWhite,
       EndReason::kForbiddenMoveClaimed,
       11,
       ""},
      {"BlackOverlineWinsInFreestyle",
       "H8 A1 D8 A3 E8 A5 F8 A7 I8 A9 G8",
       {Ruleset::kFreestyle, {}},
       {},
       Winner::kBlack,
       EndReason::kFive,
       11,
       "D8 E8 F8 G8 H8 I8"},
      {"ClaimedDoubleThreeEndsTheGame",
       "H8 A1 H10 A3 G9 A5 I9 A7 H9 B2 C3",
       {Ruleset::kFormal, ClaimPolicy::kImmediate},
       {{10, ViolationKind::kAfterGameEnd}, {11, ViolationKind::kAfterGameEnd}},
       Winner::kWhite,
       EndReason::kForbiddenMoveClaimed,
       9,
       ""},
      {"TwoPassesDraw",
       "H8 pass pass",
       {},
       {},
       Winner::kNone,
       EndReason::kDrawByPasses,
       3,
       ""},
  };
  return *cases;
}

class MoveListTest : public ::testing::TestWithParam<MoveListCase> {};

TEST_P(MoveListTest, ReportsViolationsAndOutcome) {
  const MoveListCase& c = GetParam();
  const absl::StatusOr<CheckReport> report = CheckMoveList(c.moves, c.options);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(Violations(*report), c.violations);
  EXPECT_EQ(report->outcome.winner, c.winner) << report->outcome.summary;
  EXPECT_EQ(report->outcome.reason, c.reason) << report->outcome.summary;
  EXPECT_EQ(report->outcome.decided_at_move, c.decided_at_move);
  EXPECT_EQ(Points(report->outcome.five), c.five);
}

INSTANTIATE_TEST_SUITE_P(Records, MoveListTest,
                         ::testing::ValuesIn(MoveListCases()),
                         [](const auto& info) {
                           return std::string(info.param.name);
                         });

TEST(CheckerTest, MessagesNameTheMoves) {
  const CheckReport after = *CheckMoveList("H8 A1 H9 A2 H10 A3 H11 A4 H12 B1");
  ASSERT_EQ(after.violations.size(), 1u);
  EXPECT_EQ(after.violations[0].message,
            "move 10 (white B1) comes after the game ended at move 9 (black "
            "wins by five "
            "at move 9: H8 H9 H10 H11 H12); it is not played");
  EXPECT_EQ(after.moves_played, 9);

  const CheckReport occupied = *CheckMoveList("H8 I9 H8 J10");
  EXPECT_EQ(occupied.violations[0].message,
            "move 3 (black H8): H8 already holds the black stone of move 1; "
            "the move is "
            "void");
  EXPECT_EQ(occupied.moves_played, 3);

  const CheckReport first = *CheckMoveList("A1 H8");
  EXPECT_EQ(first.violations[0].message,
            "move 1 (black A1): in formal games the first stone goes on H8 "
            "(天元), not A1");
}

// White's overline wins (white has no forbidden moves): the record ends in
// the position below, white's six A1-A6 completed by move 12 at A4.
TEST(CheckerTest, WhiteOverlineWinsOnTheBoardShown) {
  const CheckReport report =
      *CheckMoveList("H8 A1 L3 A2 C12 A3 M13 A5 E2 A6 O8 A4");
  const Board expected = *Board::FromDiagram(R"(
   ...............
   ...............
   ............X..
   ..X............
   ...............
   ...............
   ...............
   .......X......X
   ...............
   O..............
   O..............
   O..............
   O..........X...
   O...X..........
   O..............)");
  EXPECT_EQ(report.final_board, expected) << report.final_board.ToDiagram();
  EXPECT_TRUE(report.ok());
  EXPECT_EQ(report.outcome.winner, Winner::kWhite);
  EXPECT_EQ(report.outcome.reason, EndReason::kFive);
  EXPECT_EQ(report.outcome.decided_at_move, 12);
  EXPECT_EQ(report.outcome.five.size(), 6u);
}

TEST(CheckerTest, ColoursMustAlternateStartingWithBlack) {
  const CheckReport white_first = *CheckSgf("(;GM[4];W[hh];B[ii])");
  ASSERT_EQ(white_first.violations.size(), 1u);
  EXPECT_EQ(white_first.violations[0].kind, ViolationKind::kWrongColor);
  EXPECT_EQ(white_first.violations[0].move_number, 1);
  EXPECT_EQ(white_first.violations[0].message,
            "black moves first, but move 1 is white's");

  const CheckReport twice = *CheckSgf("(;GM[4];B[hh];B[ii];W[jj])");
  ASSERT_EQ(twice.violations.size(), 1u);
  EXPECT_EQ(twice.violations[0].message,
            "move 2 (black I7): it is white's turn; black moves twice");
}

// The double three of H9 (see forbidden_test), played in a game.
constexpr char kDoubleThreeGame[] =
    ";B[hh];W[ao];B[hf];W[am];B[gg];W[ak];B[ig];W[ai];B[hg])";
constexpr char kDoubleThreeFinal[] = R"(
   ABCDEFGHIJKLMNO
15 ...............
14 ...............
13 ...............
12 ...............
11 ...............
10 .......X.......
 9 ......XXX......
 8 .......X.......
 7 O..............
 6 ...............
 5 O..............
 4 ...............
 3 O..............
 2 ...............
 1 O..............)";

TEST(CheckerTest, ForbiddenMoveClaimedByTheRecordedResult) {
  const absl::StatusOr<CheckReport> report =
      CheckSgf(std::string("(;GM[4]SZ[15]RE[W+F]") + kDoubleThreeGame);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok());
  EXPECT_EQ(report->final_board, ReadDiagram(kDoubleThreeFinal).board);
  ASSERT_EQ(report->forbidden_moves.size(), 1u);
  const ForbiddenMoveReport& f = report->forbidden_moves[0];
  EXPECT_EQ(f.move_number, 9);
  EXPECT_TRUE(f.claimed);
  EXPECT_EQ(f.analysis.fouls, std::vector<Foul>{Foul::kDoubleThree});
  EXPECT_EQ(f.analysis.shapes.size(), 2u);
  EXPECT_EQ(report->outcome.winner, Winner::kWhite);
  EXPECT_EQ(report->outcome.reason, EndReason::kForbiddenMoveClaimed);
  EXPECT_EQ(report->outcome.decided_at_move, 9);
  EXPECT_EQ(
      report->outcome.summary,
      "white wins: black's move 9 is forbidden and white claimed it (H9 is "
      "forbidden: double three (三三); live three, horizontal: stones G9 H9 "
      "I9; "
      "straight four at F9 J9; live three, vertical: stones H8 H9 H10; "
      "straight "
      "four at H7 H11)");
}

TEST(CheckerTest, UnclaimedForbiddenMoveDoesNotLose) {
  struct Case {
    const char* re;
    Winner winner;
    EndReason reason;
  };
  for (const Case& c :
       {Case{"", Winner::kNone, EndReason::kUnfinished},
        Case{"RE[W+R]", Winner::kWhite, EndReason::kResignation},
        Case{"RE[B+R]", Winner::kBlack, EndReason::kResignation},
        Case{"RE[0]", Winner::kNone, EndReason::kDrawRecorded}}) {
    const CheckReport report =
        *CheckSgf(std::string("(;GM[4]") + c.re + kDoubleThreeGame);
    ASSERT_EQ(report.forbidden_moves.size(), 1u) << c.re;
    EXPECT_FALSE(report.forbidden_moves[0].claimed) << c.re;
    EXPECT_EQ(report.outcome.winner, c.winner) << c.re;
    EXPECT_EQ(report.outcome.reason, c.reason) << c.re;
    EXPECT_TRUE(report.ok()) << c.re;
  }
}

TEST(CheckerTest, FiveWithDoubleThreeWins) {
  const CheckReport report =
      *CheckMoveList("H8 A1 D9 A3 E9 A5 F9 A7 G9 A9 H10 A11 G8 A13 I10 A15 H9");
  EXPECT_TRUE(report.ok());
  EXPECT_TRUE(report.forbidden_moves.empty());
  EXPECT_EQ(report.final_board, ReadDiagram(R"(
   ABCDEFGHIJKLMNO
15 O..............
14 ...............
13 O..............
12 ...............
11 O..............
10 .......XX......
 9 O..XXXXX.......
 8 ......XX.......
 7 O..............
 6 ...............
 5 O..............
 4 ...............
 3 O..............
 2 ...............
 1 O..............)")
                                    .board);
  EXPECT_EQ(report.outcome.winner, Winner::kBlack);
  EXPECT_EQ(report.outcome.reason, EndReason::kFive);
  EXPECT_EQ(report.outcome.decided_at_move, 17);
  EXPECT_EQ(report.outcome.summary,
            "black wins by five at move 17: D9 E9 F9 G9 H9 (the five takes "
            "precedence "
            "over the double three (三三))");
}

TEST(CheckerTest, RecordedResultThatContradictsTheBoard) {
  const CheckReport report = *CheckSgf(
      "(;GM[4]RE[W+R];B[hh];W[ao];B[hi];W[am];B[hj];W[ak];B[hk];W[ai];B[hl])");
  EXPECT_EQ(report.outcome.winner, Winner::kBlack);
  EXPECT_EQ(Points(report.outcome.five), "H4 H5 H6 H7 H8");
  ASSERT_EQ(report.violations.size(), 1u);
  EXPECT_EQ(report.violations[0].kind, ViolationKind::kResultMismatch);
  EXPECT_EQ(report.violations[0].move_number, 0);
  EXPECT_EQ(report.violations[0].message,
            "the record's result W+R contradicts the board: black wins by five "
            "at move "
            "9: H4 H5 H6 H7 H8");
}

// 113 black and 112 white stones with no five anywhere: black on the points
// where (column parity) xor (row-pair parity) is 0, black's first on H8.
GameRecord FullBoardGame() {
  std::vector<Point> black = {kCenter};
  std::vector<Point> white;
  for (int i = 0; i < kNumPoints; ++i) {
    const Point p = Point::FromIndex(i);
    const bool is_black = ((p.col % 2) ^ ((p.row / 2) % 2)) == 0;
    if (p == kCenter) continue;
    (is_black ? black : white).push_back(p);
  }
  GameRecord record;
  for (size_t i = 0; i < black.size(); ++i) {
    record.moves.push_back(
        {static_cast<int>(2 * i + 1), Stone::kBlack, black[i], {}});
    if (i < white.size()) {
      record.moves.push_back(
          {static_cast<int>(2 * i + 2), Stone::kWhite, white[i], {}});
    }
  }
  return record;
}

TEST(CheckerTest, FullBoardIsADraw) {
  GameRecord record = FullBoardGame();
  ASSERT_EQ(record.moves.size(), 225u);
  for (Ruleset ruleset : {Ruleset::kFormal, Ruleset::kFreestyle}) {
    const CheckReport report =
        *CheckRecord(record, {ruleset, ClaimPolicy::kAsRecorded});
    EXPECT_TRUE(report.ok());
    EXPECT_EQ(report.outcome.reason, EndReason::kDrawFullBoard);
    EXPECT_EQ(report.outcome.winner, Winner::kNone);
    EXPECT_EQ(report.outcome.decided_at_move, 225);
    EXPECT_EQ(report.final_board.StoneCount(), 225);
  }
  record.moves.push_back({226, Stone::kWhite, std::nullopt, {}});
  const CheckReport after = *CheckRecord(record);
  ASSERT_EQ(after.violations.size(), 1u);
  EXPECT_EQ(after.violations[0].kind, ViolationKind::kAfterGameEnd);
  EXPECT_EQ(after.violations[0].move_number, 226);
}

TEST(CheckerTest, RejectsHandBuiltMovesOffTheBoard) {
  GameRecord record;
  record.moves.push_back({1, Stone::kBlack, Point{15, 3}, {}});
  EXPECT_EQ(CheckRecord(record).status().code(),
            absl::StatusCode::kInvalidArgument);
  record.moves[0] = {1, Stone::kEmpty, kCenter, {}};
  EXPECT_EQ(CheckRecord(record).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(CheckerTest, ParseErrorsPassThrough) {
  EXPECT_EQ(CheckSgf("(;GM[1];B[hh])").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CheckMoveList("H8 Q9").status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gorank::rules::gomoku
