// The record check: every violation kind, the result against the board
// (checkmate, no legal move), and every repetition reading, on the board
// and (for the rarer combinations) on the judge's table of move effects.
#include "services/rules/xiangqi/checker.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace gorank::rules::xiangqi {
namespace {

GameReport CheckOne(const std::string& pgn, const CheckOptions& options = {}) {
  absl::StatusOr<FileReport> r = CheckRecord(pgn, options);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok() || r->games.empty()) return GameReport();
  return r->games[0];
}

std::string Game(const std::string& fen, const std::string& result,
                 const std::string& moves) {
  std::string out = "[Game \"Chinese Chess\"]\n[Result \"" + result + "\"]\n";
  if (!fen.empty()) out += "[FEN \"" + fen + "\"]\n";
  return out + moves + "\n";
}

const char* kMateIn1 = "3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1";
const char* kStalemateIn1 = "3k5/9/4P4/9/9/9/9/9/9/4K4 w - - 0 1";

TEST(XiangqiCheckerTest, OpeningInEachNotationEndsInOnePosition) {
  const std::vector<std::string> records = {
      "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7",
      "1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2 H2+3",
      "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３",
  };
  std::string fen;
  for (const std::string& moves : records) {
    const GameReport r = CheckOne(Game("", "*", moves));
    EXPECT_FALSE(r.failed()) << moves << ": " << r.violations[0].message;
    EXPECT_EQ(r.moves_played, 6);
    EXPECT_EQ(r.outcome.reason, EndReason::kUnfinished);
    if (fen.empty()) fen = r.final_fen;
    EXPECT_EQ(r.final_fen, fen) << moves;
  }
}

TEST(XiangqiCheckerTest, CheckmateAndNoLegalMoveDecideTheResult) {
  GameReport r = CheckOne(Game(kMateIn1, "1-0", "1. a7d7"));
  EXPECT_FALSE(r.failed());
  EXPECT_EQ(r.outcome.reason, EndReason::kCheckmate);
  EXPECT_EQ(r.outcome.winner, Side::kRed);
  EXPECT_EQ(r.outcome.decided_at_move, 1);

  r = CheckOne(Game(kMateIn1, "*", "1. a7d7"));
  EXPECT_FALSE(r.failed());  // no result written: the board decides
  EXPECT_EQ(r.outcome.winner, Side::kRed);

  r = CheckOne(Game(kStalemateIn1, "1-0", "1. e7e8"));
  EXPECT_FALSE(r.failed());
  EXPECT_EQ(r.outcome.reason, EndReason::kNoLegalMove);  // 困毙: a loss
  EXPECT_EQ(r.outcome.winner, Side::kRed);
}

TEST(XiangqiCheckerTest, ResultMismatch) {
  for (const char* result : {"0-1", "1/2-1/2", "黑胜"}) {
    const GameReport r = CheckOne(Game(kMateIn1, result, "1. a7d7"));
    ASSERT_EQ(r.violations.size(), 1u) << result;
    EXPECT_EQ(r.violations[0].kind, ViolationKind::kResultMismatch);
    EXPECT_EQ(r.violations[0].move_number, 0);
    EXPECT_NE(r.violations[0].message.find("checkmated"), std::string::npos);
  }
  // A result on an unfinished board is taken as recorded (resignation).
  const GameReport r = CheckOne(Game("", "0-1", "1. h2e2 h9g7"));
  EXPECT_FALSE(r.failed());
  EXPECT_EQ(r.outcome.reason, EndReason::kRecordedWin);
  EXPECT_EQ(r.outcome.winner, Side::kBlack);
}

struct ViolationCase {
  std::string pgn;
  ViolationKind kind;
  int move;
  Rule rule;
};

TEST(XiangqiCheckerTest, EveryViolationKindWithItsMove) {
  const std::vector<ViolationCase> cases = {
      {Game("", "*", "1. h2e2 h9g7 2. b0d1"), ViolationKind::kIllegalMove, 3,
       Rule::kHorseLeg},
      {Game("", "*", "1. C2.5 C8+7"), ViolationKind::kIllegalMove, 2,
       Rule::kCannonScreen},
      {Game("4k4/9/9/9/9/9/9/9/3N5/2BK5 w - - 0 1", "*", "1. 相七进五"),
       ViolationKind::kIllegalMove, 1, Rule::kElephantEye},
      {Game("", "*", "1. h2e2 zz"), ViolationKind::kUnreadableMove, 2,
       Rule::kNone},
      {Game("", "*", "1. C1.5"), ViolationKind::kNoSuchPiece, 1, Rule::kNone},
      {Game("3k5/9/9/9/9/R8/9/9/9/R3K4 w - - 0 1", "*", "1. R9+1"),
       ViolationKind::kAmbiguousMove, 1, Rule::kNone},
      {Game(kMateIn1, "1-0", "1. a7d7 d9e9"), ViolationKind::kAfterGameEnd, 2,
       Rule::kNone},
      {Game("", "*", "1. h2e2 e2e6"), ViolationKind::kIllegalMove, 2,
       Rule::kOpponentPiece},
      {Game("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "*", "1. e1d2"),
       ViolationKind::kIllegalMove, 1, Rule::kFlyingGeneral},
  };
  for (const ViolationCase& c : cases) {
    const GameReport r = CheckOne(c.pgn);
    ASSERT_EQ(r.violations.size(), 1u) << c.pgn;
    const Violation& v = r.violations[0];
    EXPECT_EQ(v.kind, c.kind) << c.pgn << ": " << v.message;
    EXPECT_EQ(v.move_number, c.move) << v.message;
    EXPECT_EQ(v.rule, c.rule) << v.message;
    EXPECT_NE(v.message.find("move " + std::to_string(c.move)),
              std::string::npos)
        << v.message;
    EXPECT_FALSE(v.notation.empty());
  }
}

TEST(XiangqiCheckerTest, ForcedNotationAndFormatTag) {
  // "h2e2" is not WXF: forcing WXF makes it unreadable.
  CheckOptions wxf;
  wxf.notation = Notation::kWxf;
  GameReport r = CheckOne(Game("", "*", "1. h2e2"), wxf);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].kind, ViolationKind::kUnreadableMove);
  r = CheckOne("[Format \"WXF\"]\n1. h2e2\n");
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].kind, ViolationKind::kUnreadableMove);
  absl::StatusOr<FileReport> bad = CheckRecord("[Format \"SAN\"]\n1. h2e2\n");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  bad = CheckRecord("[FEN \"3k5/9/9/9/9/9/9/9/9/2K6 w - - 0 1\"]\n1. c0c1\n");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("line 1"), std::string::npos);
}

// Red checks on every move, black's king steps between d9 and d8.
const char* kPerpetualCheck =
    "1. h1h9 d9d8 2. h9h8 d8d9 3. h8h9 d9d8 4. h9h8 d8d9 5. h8h9";
const char* kPerpetualCheckFen = "3k5/9/9/9/9/9/9/9/7R1/5K3 w - - 0 1";

TEST(XiangqiCheckerTest, PerpetualCheckLoses) {
  GameReport r = CheckOne(Game(kPerpetualCheckFen, "0-1", kPerpetualCheck));
  EXPECT_FALSE(r.failed()) << r.violations[0].message;
  ASSERT_EQ(r.repetitions.size(), 1u);
  EXPECT_EQ(r.repetitions[0].verdict.ruling, RepetitionRuling::kPerpetualCheck);
  EXPECT_EQ(r.repetitions[0].verdict.loser, Side::kRed);
  EXPECT_EQ(r.repetitions[0].first_move, 2);
  EXPECT_EQ(r.repetitions[0].last_move, 9);
  EXPECT_EQ(r.outcome.reason, EndReason::kRepetition);
  EXPECT_EQ(r.outcome.winner, Side::kBlack);
  // Claiming the win for the checking side, or a draw, contradicts the rule.
  for (const char* result : {"1-0", "1/2-1/2"}) {
    r = CheckOne(Game(kPerpetualCheckFen, result, kPerpetualCheck));
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, ViolationKind::kResultMismatch);
  }
  // Playing on after the ruling is a move after the end.
  r = CheckOne(
      Game(kPerpetualCheckFen, "0-1", std::string(kPerpetualCheck) + " d9d8"));
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].kind, ViolationKind::kAfterGameEnd);
  EXPECT_EQ(r.violations[0].move_number, 10);
}

TEST(XiangqiCheckerTest, IdleRepetitionIsADraw) {
  const char* fen = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
  const char* moves = "1. e0e1 d9d8 2. e1e0 d8d9 3. e0e1 d9d8 4. e1e0 d8d9";
  GameReport r = CheckOne(Game(fen, "1/2-1/2", moves));
  EXPECT_FALSE(r.failed());
  ASSERT_EQ(r.repetitions.size(), 1u);
  EXPECT_EQ(r.repetitions[0].verdict.ruling, RepetitionRuling::kIdle);
  EXPECT_FALSE(r.outcome.winner.has_value());
  r = CheckOne(Game(fen, "1-0", moves));
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].kind, ViolationKind::kResultMismatch);
}

TEST(XiangqiCheckerTest, PerpetualChaseOfAnUnprotectedHorseLoses) {
  // Red's chariot attacks the black horse anew on every move; the horse
  // runs between b7 and a9.
  const char* fen = "7R1/4k4/1n7/9/9/9/9/9/9/3K5 w - - 0 1";
  const char* moves = "1. h9h7 b7a9 2. h7h9 a9b7 3. h9h7 b7a9 4. h7h9 a9b7";
  const GameReport r = CheckOne(Game(fen, "0-1", moves));
  EXPECT_FALSE(r.failed()) << r.violations[0].message;
  ASSERT_EQ(r.repetitions.size(), 1u);
  EXPECT_EQ(r.repetitions[0].verdict.ruling, RepetitionRuling::kPerpetualChase);
  EXPECT_EQ(r.repetitions[0].verdict.loser, Side::kRed);
  EXPECT_NE(r.repetitions[0].verdict.chased_piece.find("black horse"),
            std::string::npos);
  EXPECT_EQ(r.outcome.winner, Side::kBlack);
}

TEST(XiangqiCheckerTest, ChasingAProtectedPieceNeedsAnArbiter) {
  // As above, but a black chariot on the a-file guards a9: one of red's
  // attacks is on a protected piece, which this checker does not rule on.
  const char* fen = "7R1/4k4/1n7/9/9/9/9/r8/9/3K5 w - - 0 1";
  const char* moves = "1. h9h7 b7a9 2. h7h9 a9b7 3. h9h7 b7a9 4. h7h9 a9b7";
  const GameReport r = CheckOne(Game(fen, "0-1", moves));
  EXPECT_FALSE(r.failed());
  EXPECT_TRUE(r.needs_arbiter);
  ASSERT_EQ(r.repetitions.size(), 1u);
  EXPECT_EQ(r.repetitions[0].verdict.ruling, RepetitionRuling::kNeedsArbiter);
  EXPECT_EQ(r.outcome.reason, EndReason::kNeedsArbiter);
  EXPECT_NE(r.outcome.summary.find("needs an arbiter"), std::string::npos);
}

TEST(XiangqiCheckerTest, OfferingAChariotExchangeIsNotACertainChase) {
  // Red's chariot follows the black chariot along the ranks; each could
  // take the other first: an arbiter decides.
  const char* fen = "7R1/4k4/1r7/9/9/9/9/9/9/3K5 w - - 0 1";
  const char* moves = "1. h9h7 b7b9 2. h7h9 b9b7 3. h9h7 b7b9 4. h7h9 b9b7";
  const GameReport r = CheckOne(Game(fen, "*", moves));
  EXPECT_FALSE(r.failed()) << r.violations[0].message;
  ASSERT_EQ(r.repetitions.size(), 1u);
  EXPECT_NE(r.repetitions[0].verdict.ruling, RepetitionRuling::kPerpetualChase);
}

MoveEffect Effect(Side mover, bool check, int chased_slot = -1,
                  bool threat = false) {
  MoveEffect e;
  e.mover = mover;
  e.check = check;
  if (chased_slot >= 0)
    e.chased.push_back(ChasedPiece{chased_slot, PieceType::kHorse, 0});
  e.threat = threat;
  return e;
}

TEST(XiangqiRepetitionTest, EveryReading) {
  const Side R = Side::kRed, B = Side::kBlack;
  struct Case {
    const char* what;
    std::vector<MoveEffect> cycle;
    RepetitionRuling ruling;
    std::optional<Side> loser;
  };
  const std::vector<Case> cases = {
      {"red checks, black idles",
       {Effect(R, true), Effect(B, false), Effect(R, true), Effect(B, false)},
       RepetitionRuling::kPerpetualCheck,
       R},
      {"black checks, red idles",
       {Effect(R, false), Effect(B, true), Effect(R, false), Effect(B, true)},
       RepetitionRuling::kPerpetualCheck,
       B},
      {"both check",
       {Effect(R, true), Effect(B, true), Effect(R, true), Effect(B, true)},
       RepetitionRuling::kMutualPerpetualCheck,
       std::nullopt},
      {"check against chase: the checker loses",
       {Effect(R, true), Effect(B, false, 3), Effect(R, true),
        Effect(B, false, 3)},
       RepetitionRuling::kPerpetualCheck,
       R},
      {"red chases one piece",
       {Effect(R, false, 5), Effect(B, false), Effect(R, false, 5),
        Effect(B, false)},
       RepetitionRuling::kPerpetualChase,
       R},
      {"one check one chase counts as a chase",
       {Effect(R, true), Effect(B, false), Effect(R, false, 5),
        Effect(B, false)},
       RepetitionRuling::kPerpetualChase,
       R},
      {"both chase",
       {Effect(R, false, 5), Effect(B, false, 2), Effect(R, false, 5),
        Effect(B, false, 2)},
       RepetitionRuling::kMutualPerpetualChase,
       std::nullopt},
      {"chasing different pieces",
       {Effect(R, false, 5), Effect(B, false), Effect(R, false, 6),
        Effect(B, false)},
       RepetitionRuling::kNeedsArbiter,
       std::nullopt},
      {"threats that are not certain chases",
       {Effect(R, false, -1, true), Effect(B, false),
        Effect(R, false, -1, true), Effect(B, false)},
       RepetitionRuling::kNeedsArbiter,
       std::nullopt},
      {"one check one idle move is allowed",
       {Effect(R, true), Effect(B, false), Effect(R, false), Effect(B, false)},
       RepetitionRuling::kIdle,
       std::nullopt},
      {"both idle",
       {Effect(R, false), Effect(B, false), Effect(R, false), Effect(B, false)},
       RepetitionRuling::kIdle,
       std::nullopt},
  };
  for (const Case& c : cases) {
    const RepetitionVerdict v = JudgeRepetition(c.cycle);
    EXPECT_EQ(v.ruling, c.ruling) << c.what << ": " << v.description;
    EXPECT_EQ(v.loser, c.loser) << c.what;
    EXPECT_FALSE(v.description.empty());
  }
}

}  // namespace
}  // namespace gorank::rules::xiangqi
